package org.polygpu.emulator;

/** Conversions between the timing model's real-valued durations and the virtual clock's whole nanoseconds. */
final class VirtualTime {
    private VirtualTime() {
    }

    /**
     * {@code nanos} rounded up to a whole nanosecond, treating values within floating-point noise of an integer as
     * that integer so that an exact duration (1 MB at 10 GB/s is 100 000 ns) is not pushed one nanosecond late.
     */
    static long ceilNanos(double nanos) {
        if (!(nanos > 0)) {
            return 0;
        }
        double tolerance = 1e-6 + 1e-12 * nanos;
        double rounded = Math.rint(nanos);
        if (Math.abs(nanos - rounded) <= tolerance) {
            return (long) rounded;
        }
        return (long) Math.ceil(nanos);
    }
}
