package org.polygpu.bench.hand;

import org.polygpu.bench.programs.Verdict;

/**
 * The outcome of a {@link HandRun}: the verdict and what its timeline adds up to ({@link TimelineTotals} defines
 * each figure), and the inputs of a lower bound on the makespan.
 *
 * @param run                 what ran
 * @param verdict             OK or FAIL against the CPU reference; OK with "not validated" when nothing was checked
 * @param makespanMicros      first kernel or copy to the last, µs of the virtual clock
 * @param bytesHostToDevice   bytes copied host to device
 * @param bytesDeviceToDevice bytes copied device to device
 * @param bytesDeviceToHost   bytes copied device to host (0 without validation)
 * @param kernelMicros        total device time the kernels consumed, µs ({@link TimelineTotals})
 * @param kernels             kernels launched
 * @param criticalPathMicros  the longest chain of kernels through this program's own data dependencies (a kernel
 *                            or copy after the last one that wrote what it reads, or read or wrote what it writes),
 *                            every copy taking no time, each kernel as long as alone on its device, µs
 */
public record HandResult(HandRun run, Verdict verdict, double makespanMicros, long bytesHostToDevice,
                         long bytesDeviceToDevice, long bytesDeviceToHost, double kernelMicros, int kernels,
                         double criticalPathMicros) {
    static HandResult of(HandRun run, Verdict verdict, TimelineTotals totals, double criticalPathMicros) {
        return new HandResult(run, verdict, totals.makespanMicros(), totals.bytesHostToDevice(),
                totals.bytesDeviceToDevice(), totals.bytesDeviceToHost(), totals.kernelMicros(), totals.kernels(),
                criticalPathMicros);
    }
}
