package org.polygpu.sched.spi;

/**
 * Bit masks of locations: bit {@code d} is device {@code d}, bit {@code deviceCount} is the host, matching the
 * row order of the bandwidth matrix.
 */
public final class Locations {
    /** Devices a mask can describe next to the host. */
    public static final int MAX_DEVICES = 63;

    private Locations() {
    }

    /** The host's bit for a runtime of {@code deviceCount} devices. */
    public static long host(int deviceCount) {
        return 1L << deviceCount;
    }

    /** The bit of one device. */
    public static long device(int device) {
        return 1L << device;
    }

    /** All devices {@code 0..deviceCount-1}, without the host. */
    public static long allDevices(int deviceCount) {
        return deviceCount == 64 ? -1L : (1L << deviceCount) - 1;
    }

    /** Whether {@code location} is in {@code mask}. */
    public static boolean contains(long mask, int location) {
        return (mask & (1L << location)) != 0;
    }
}
