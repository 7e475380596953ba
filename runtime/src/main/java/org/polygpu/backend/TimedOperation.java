package org.polygpu.backend;

/**
 * One completed operation of the timeline, in nanoseconds since the backend started (virtual on the emulator).
 *
 * @param device      device whose stream ran it
 * @param stream      the stream's {@link StreamHandle#id()} on that device
 * @param kind        kernel or copy direction
 * @param label       what it served
 * @param startNanos  when it started
 * @param endNanos    when it ended
 * @param bytes       bytes moved (copies) or 0
 * @param source      copies: source location (device, or {@code -1} for the host); kernels: the device
 */
public record TimedOperation(int device, int stream, Kind kind, OperationLabel label, long startNanos, long endNanos,
                             long bytes, int source) {
    /** What an operation was. */
    public enum Kind { KERNEL, COPY_HOST_TO_DEVICE, COPY_DEVICE_TO_HOST, COPY_DEVICE_TO_DEVICE }
}
