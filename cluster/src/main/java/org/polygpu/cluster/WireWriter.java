package org.polygpu.cluster;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A message being written: little-endian ints, longs, doubles, strings (length and UTF-8) and byte runs, growing as
 * needed. Read back by {@link WireReader} in the same order. Not thread-safe.
 */
final class WireWriter {
    private ByteBuffer buffer = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

    /** A message that starts with {@code op}. */
    static WireWriter of(Op op) {
        return new WireWriter().putInt(op.ordinal());
    }

    WireWriter putInt(int v) {
        room(4).putInt(v);
        return this;
    }

    WireWriter putLong(long v) {
        room(8).putLong(v);
        return this;
    }

    WireWriter putDouble(double v) {
        room(8).putDouble(v);
        return this;
    }

    WireWriter putBoolean(boolean v) {
        return putInt(v ? 1 : 0);
    }

    WireWriter putString(String s) {
        return putBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    WireWriter putBytes(byte[] bytes) {
        putInt(bytes.length);
        room(bytes.length).put(bytes);
        return this;
    }

    /** Appends another message's bytes (a command to a batch). */
    WireWriter append(WireWriter other) {
        room(other.size()).put(other.buffer.array(), 0, other.size());
        return this;
    }

    int size() {
        return buffer.position();
    }

    /** The message in native memory of {@code arena}, as MPI sends it. */
    MemorySegment toSegment(Arena arena) {
        MemorySegment segment = arena.allocate(Math.max(1, size()));
        MemorySegment.copy(buffer.array(), 0, segment, ValueLayout.JAVA_BYTE, 0, size());
        return segment.asSlice(0, size());
    }

    private ByteBuffer room(int bytes) {
        if (buffer.remaining() < bytes) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + bytes))
                    .order(ByteOrder.LITTLE_ENDIAN);
            bigger.put(buffer.array(), 0, buffer.position());
            buffer = bigger;
        }
        return buffer;
    }
}
