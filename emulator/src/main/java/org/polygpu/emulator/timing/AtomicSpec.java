package org.polygpu.emulator.timing;

/**
 * The global atomics of a device model ({@link AtomicTiming}).
 *
 * @param sameAddressNs time one atomic on an address holds it: atomics on one address, from anywhere in the grid,
 *                      complete one after another at this interval
 * @param perNs         atomics on different addresses the whole device completes per nanosecond at most
 */
public record AtomicSpec(double sameAddressNs, double perNs) {
    public AtomicSpec {
        Checks.nonNegative("atomics.sameAddressNs", sameAddressNs);
        Checks.positive("atomics.perNs", perNs);
    }
}
