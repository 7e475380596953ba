package org.polygpu.policies;

import org.polygpu.sched.spi.Locations;

/** Validation of the candidate mask a policy is given. */
final class Candidates {
    private Candidates() {
    }

    /**
     * The candidate devices among {@code 0..deviceCount-1}.
     *
     * @throws IllegalArgumentException when the mask names none of them
     */
    static long within(long candidates, int deviceCount) {
        long devices = candidates & Locations.allDevices(deviceCount);
        if (devices == 0) {
            throw new IllegalArgumentException("candidate mask 0x" + Long.toHexString(candidates)
                    + " names no device in 0.." + (deviceCount - 1));
        }
        return devices;
    }
}
