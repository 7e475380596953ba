package org.polygpu.emulator.timing;

/**
 * What a kernel launch costs on a device model besides its execution.
 *
 * @param deviceNs time between a kernel becoming ready on its stream and its first block running (the device-side
 *                 cost of a launch: a stream of empty kernels completes one per this interval)
 * @param hostNs   host time one enqueue call (a launch, a copy, an event) costs the calling thread
 */
public record LaunchSpec(double deviceNs, double hostNs) {
    public LaunchSpec {
        Checks.nonNegative("launch.deviceNs", deviceNs);
        Checks.nonNegative("launch.hostNs", hostNs);
    }
}
