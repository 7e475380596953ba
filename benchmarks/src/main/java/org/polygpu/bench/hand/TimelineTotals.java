package org.polygpu.bench.hand;

import java.util.List;

import org.polygpu.backend.TimedOperation;

/**
 * What a backend's timeline ({@link org.polygpu.backend.Backend#timeline()}, the operations of a polygpu run's
 * {@code ExportTrace} too) adds up to. The definitions, the same for the hand-optimized and the polygpu runs:
 *
 * <ul>
 *   <li>makespan: from the earliest start of any kernel or copy to the latest end, in µs of the backend's clock
 *       (what {@code ProgramLauncher} prints from the trace);</li>
 *   <li>bytes: every copy counted once, in the bytes it moved, by its {@link TimedOperation.Kind}: host to device,
 *       device to device (peer copies, and copies within one device should a program make any), device to host;
 *       nothing else (allocations, symbol writes) counts;</li>
 *   <li>kernel time: the sum over every kernel of the device time it consumed ({@link TimedOperation#workNanos()}:
 *       on the emulator its execution alone times the fraction of the device it could use, so the kernels of one
 *       device add up to at most the makespan), in µs; kernels: how many ran.</li>
 * </ul>
 *
 * @param makespanMicros      first start to last end, µs; 0 for an empty timeline
 * @param bytesHostToDevice   bytes of the host-to-device copies
 * @param bytesDeviceToDevice bytes of the device-to-device copies
 * @param bytesDeviceToHost   bytes of the device-to-host copies
 * @param kernelMicros        total device time the kernels consumed, µs
 * @param kernels             kernels in the timeline
 */
public record TimelineTotals(double makespanMicros, long bytesHostToDevice, long bytesDeviceToDevice,
                             long bytesDeviceToHost, double kernelMicros, int kernels) {
    /** The totals of {@code timeline}. */
    public static TimelineTotals of(List<TimedOperation> timeline) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long[] bytes = new long[TimedOperation.Kind.values().length];
        long kernelNanos = 0;
        int kernels = 0;
        for (TimedOperation op : timeline) {
            first = Math.min(first, op.startNanos());
            last = Math.max(last, op.endNanos());
            bytes[op.kind().ordinal()] += op.bytes();
            if (op.kind() == TimedOperation.Kind.KERNEL) {
                kernelNanos += op.workNanos();
                kernels++;
            }
        }
        return new TimelineTotals(timeline.isEmpty() ? 0 : (last - first) / 1e3,
                bytes[TimedOperation.Kind.COPY_HOST_TO_DEVICE.ordinal()],
                bytes[TimedOperation.Kind.COPY_DEVICE_TO_DEVICE.ordinal()],
                bytes[TimedOperation.Kind.COPY_DEVICE_TO_HOST.ordinal()], kernelNanos / 1e3, kernels);
    }
}
