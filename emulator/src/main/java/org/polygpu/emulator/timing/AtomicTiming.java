package org.polygpu.emulator.timing;

/**
 * What global atomics cost a launch: atomics on one address complete one after another, from anywhere in the grid,
 * and the device completes a bounded number of atomics per nanosecond over all addresses.
 *
 * <pre>
 *   time = max(hotAtomics * sameAddressNs, atomics / perNs)
 * </pre>
 */
public final class AtomicTiming {
    private final AtomicSpec atomics;

    public AtomicTiming(AtomicSpec atomics) {
        this.atomics = atomics;
    }

    /** Nanoseconds {@code profile}'s atomics take at least. */
    public double nanos(KernelProfile profile) {
        return Math.max(profile.counters().hotAtomics() * atomics.sameAddressNs(),
                profile.counters().atomics() / atomics.perNs());
    }
}
