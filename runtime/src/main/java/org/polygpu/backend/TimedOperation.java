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
 * @param aloneNanos  how long the operation would have taken with its device (kernels) or link (copies) to itself;
 *                    the emulator knows it for kernels (launch latency plus execution alone), elsewhere it is the
 *                    duration
 * @param workNanos   kernels: the device time the kernel consumed, its execution alone times the fraction of the
 *                    device it could use (so the kernels of one device consume at most the makespan in total), where
 *                    the emulator knows it; else the duration (the whole device assumed); copies: 0
 */
public record TimedOperation(int device, int stream, Kind kind, OperationLabel label, long startNanos, long endNanos,
                             long bytes, int source, long aloneNanos, long workNanos) {
    /** An operation whose time alone is its duration and which, if a kernel, used the whole device. */
    public TimedOperation(int device, int stream, Kind kind, OperationLabel label, long startNanos, long endNanos,
                          long bytes, int source) {
        this(device, stream, kind, label, startNanos, endNanos, bytes, source, endNanos - startNanos,
                kind == Kind.KERNEL ? endNanos - startNanos : 0);
    }

    /** What an operation was. */
    public enum Kind { KERNEL, COPY_HOST_TO_DEVICE, COPY_DEVICE_TO_HOST, COPY_DEVICE_TO_DEVICE }
}
