package org.polygpu.emulator.timing;

/**
 * What a running kernel occupies on its device, and how long it takes beside other kernels ({@code ComputeModel}
 * shares a device by these). Kernels at once add their resident warps on the SMs (so they contend for issue slots
 * and, beyond the SMs' capacity, take turns) and their footprints in L2 (so that together they may no longer fit);
 * the device's memory bandwidth bounds them together.
 */
public interface DeviceShare {
    /** Warps the kernel keeps resident, summed over the SMs it uses. */
    double residentWarps();

    /** Bytes of the buffers it may touch. */
    long footprint();

    /**
     * Nanoseconds it executes for beside kernels keeping {@code otherWarps} warps resident with buffers of
     * {@code otherFootprint} bytes, were their share of the memory bandwidth no limit.
     */
    double nanos(double otherWarps, long otherFootprint);

    /** Nanoseconds its memory traffic needs at the device's whole bandwidth, beside {@code otherFootprint} bytes. */
    double memoryNanos(long otherFootprint);

    /** A kernel that occupies nothing and takes no time. */
    DeviceShare NONE = new DeviceShare() {
        @Override
        public double residentWarps() {
            return 0;
        }

        @Override
        public long footprint() {
            return 0;
        }

        @Override
        public double nanos(double otherWarps, long otherFootprint) {
            return 0;
        }

        @Override
        public double memoryNanos(long otherFootprint) {
            return 0;
        }
    };
}
