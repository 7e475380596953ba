package org.polygpu.backend;

/**
 * A pointer argument of a launch that points {@code bytes} into a device buffer: the kernel receives the buffer's
 * address plus {@code bytes}. Backends resolve the buffer as they do a plain {@link DeviceBuffer} argument.
 *
 * @param buffer the buffer pointed into
 * @param bytes  the offset, in {@code 0..buffer.bytes()}
 */
public record BufferOffset(DeviceBuffer buffer, long bytes) {
    /** @throws IllegalArgumentException when the offset is outside the buffer */
    public BufferOffset {
        if (bytes < 0 || bytes > buffer.bytes()) {
            throw new IllegalArgumentException("offset of " + bytes + " bytes is outside a buffer of "
                    + buffer.bytes() + " bytes");
        }
    }
}
