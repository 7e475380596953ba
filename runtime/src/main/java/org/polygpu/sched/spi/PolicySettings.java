package org.polygpu.sched.spi;

import java.util.function.LongSupplier;

import org.polygpu.topology.BandwidthMatrix;

/**
 * What a device-selection policy is configured with when the runtime starts; what changes as the program runs (the
 * devices' load, the current device) comes with each {@link SelectionRequest}.
 *
 * @param deviceCount   devices in use (the policies choose among {@code 0..deviceCount-1})
 * @param bandwidth     interconnect matrix restricted to the devices in use, host last
 * @param dataThreshold fraction of the argument bytes a device must hold, strictly more, to count as holding data
 *                      (exploration threshold of §III-B3)
 * @param clock         the backend's clock now, in nanoseconds, on the scale of the durations a {@link WorkObserver}
 *                      is told (the host's virtual time on the emulator), for policies that predict when work ends
 */
public record PolicySettings(int deviceCount, BandwidthMatrix bandwidth, double dataThreshold, LongSupplier clock) {
    /** Settings whose clock is the host's monotonic clock ({@link System#nanoTime()}). */
    public PolicySettings(int deviceCount, BandwidthMatrix bandwidth, double dataThreshold) {
        this(deviceCount, bandwidth, dataThreshold, System::nanoTime);
    }

    public PolicySettings {
        if (deviceCount < 1 || deviceCount > LocationSet.MAX_DEVICES) {
            throw new IllegalArgumentException("deviceCount must be in 1.." + LocationSet.MAX_DEVICES + ", got "
                    + deviceCount);
        }
        if (bandwidth.gpuCount() != deviceCount) {
            throw new IllegalArgumentException("bandwidth matrix describes " + bandwidth.gpuCount()
                    + " GPUs but " + deviceCount + " are in use");
        }
        if (!(dataThreshold >= 0 && dataThreshold <= 1)) {
            throw new IllegalArgumentException("DataThreshold must be in [0, 1], got " + dataThreshold);
        }
        if (clock == null) {
            throw new IllegalArgumentException("clock must not be null");
        }
    }
}
