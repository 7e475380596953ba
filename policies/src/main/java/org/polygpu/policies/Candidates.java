package org.polygpu.policies;

import org.polygpu.sched.spi.LocationSet;

/** Validation of the candidate devices a policy is given. */
final class Candidates {
    private Candidates() {
    }

    /**
     * The candidate devices among {@code 0..deviceCount-1}.
     *
     * @throws IllegalArgumentException when the candidates name none of them
     */
    static LocationSet within(LocationSet candidates, int deviceCount) {
        LocationSet devices = candidates.intersection(LocationSet.allDevices(deviceCount));
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("candidates " + candidates + " name no device in 0.."
                    + (deviceCount - 1));
        }
        return devices;
    }
}
