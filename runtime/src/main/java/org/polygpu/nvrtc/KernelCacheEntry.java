package org.polygpu.nvrtc;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The bytes of one {@link KernelCache} entry: a format tag, the key the entry answers, the {@link NvrtcResult}
 * (PTX, CUBIN if any, lowered names, log), then a CRC-32C of everything before it. Decoding anything else (another
 * format, another key, a truncated or altered file) gives nothing, so that a damaged entry is a miss and not an error.
 */
final class KernelCacheEntry {
    /** Changes whenever the layout below does, so that entries of another layout are misses. */
    static final String FORMAT = "polygpu-kernel-cache-1";
    private static final int CHECKSUM_BYTES = Long.BYTES;

    private KernelCacheEntry() {
    }

    static byte[] encode(String key, NvrtcResult result) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(FORMAT);
            out.writeUTF(key);
            writeText(out, result.ptx());
            byte[] cubin = result.cubin();
            out.writeInt(cubin == null ? -1 : cubin.length);
            if (cubin != null) {
                out.write(cubin);
            }
            out.writeInt(result.loweredNames().size());
            for (Map.Entry<String, String> e : result.loweredNames().entrySet()) {
                writeText(out, e.getKey());
                writeText(out, e.getValue());
            }
            writeText(out, result.log());
            out.writeLong(checksum(bytes.toByteArray(), bytes.size()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a kernel cache entry in memory", e);
        }
        return bytes.toByteArray();
    }

    /** The result {@code bytes} hold for {@code key}, or empty when they are not a whole, unaltered entry for it. */
    static Optional<NvrtcResult> decode(String key, byte[] bytes) {
        if (bytes.length < CHECKSUM_BYTES) {
            return Optional.empty();
        }
        int body = bytes.length - CHECKSUM_BYTES;
        if (ByteBuffer.wrap(bytes, body, CHECKSUM_BYTES).getLong() != checksum(bytes, body)) {
            return Optional.empty();
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, body))) {
            if (!in.readUTF().equals(FORMAT) || !in.readUTF().equals(key)) {
                return Optional.empty();
            }
            String ptx = readText(in, body);
            int cubinLength = in.readInt();
            byte[] cubin = cubinLength < 0 ? null : readBytes(in, cubinLength, body);
            int names = in.readInt();
            if (names < 0 || names > body) {
                return Optional.empty();
            }
            Map<String, String> lowered = new LinkedHashMap<>();
            for (int i = 0; i < names; i++) {
                lowered.put(readText(in, body), readText(in, body));
            }
            return Optional.of(new NvrtcResult(ptx, cubin, lowered, readText(in, body)));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static long checksum(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return crc.getValue();
    }

    /** Text of any length ({@code writeUTF} stops at 64 KiB, and PTX is often longer). */
    private static void writeText(DataOutputStream out, String text) throws IOException {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readText(DataInputStream in, int limit) throws IOException {
        return new String(readBytes(in, in.readInt(), limit), StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(DataInputStream in, int length, int limit) throws IOException {
        if (length < 0 || length > limit) {
            throw new IOException("a length of " + length + " in an entry of " + limit + " bytes");
        }
        byte[] b = in.readNBytes(length);
        if (b.length != length) {
            throw new IOException("the entry ends early");
        }
        return b;
    }
}
