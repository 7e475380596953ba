package org.polygpu.backend;

/**
 * What a device is: its name, compute capability and the limits a launch is checked against.
 *
 * @param name                 device name, e.g. {@code Tesla V100-SXM2-16GB}
 * @param computeMajor         compute capability, major part
 * @param computeMinor         compute capability, minor part
 * @param totalMemory          bytes of device memory
 * @param multiprocessors      number of SMs
 * @param clockKhz             SM clock in kHz
 * @param maxThreadsPerBlock   threads in one block at most
 * @param maxSharedMemoryPerBlock shared memory bytes per block at most
 * @param warpSize             threads per warp
 */
public record DeviceProperties(String name, int computeMajor, int computeMinor, long totalMemory, int multiprocessors,
                               int clockKhz, int maxThreadsPerBlock, int maxSharedMemoryPerBlock, int warpSize) {
    public String computeCapability() {
        return computeMajor + "." + computeMinor;
    }
}
