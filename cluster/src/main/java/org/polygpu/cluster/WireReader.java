package org.polygpu.cluster;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** A received message, read in the order {@link WireWriter} wrote it. Not thread-safe. */
final class WireReader {
    /** The kinds by ordinal, read once: {@code Op.values()} copies its array on every call. */
    private static final Op[] OPS = Op.values();

    private final ByteBuffer buffer;

    WireReader(byte[] bytes) {
        buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    int getInt() {
        return buffer.getInt();
    }

    long getLong() {
        return buffer.getLong();
    }

    double getDouble() {
        return buffer.getDouble();
    }

    boolean getBoolean() {
        return buffer.getInt() != 0;
    }

    String getString() {
        return new String(getBytes(), StandardCharsets.UTF_8);
    }

    byte[] getBytes() {
        byte[] bytes = new byte[buffer.getInt()];
        buffer.get(bytes);
        return bytes;
    }

    Op getOp() {
        int op = buffer.getInt();
        if (op < 0 || op >= OPS.length) {
            throw new IllegalStateException("a message of unknown kind " + op + " arrived: the ranks run different"
                    + " versions of polygpu");
        }
        return OPS[op];
    }

    boolean hasMore() {
        return buffer.hasRemaining();
    }
}
