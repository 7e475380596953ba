package org.polygpu.array;

import org.polygpu.sched.spi.Locations;

/**
 * The MSI-like coherence state of one array over its locations (devices {@code 0..n-1}, host {@code n}).
 *
 * <p>A location is <b>Modified</b> when it holds the only valid copy and that copy was written there,
 * <b>Shared</b> when it is valid (possibly with others), <b>Invalid</b> otherwise. Transitions happen when work is
 * scheduled, not when it completes:
 * <ul>
 *   <li>a fresh array starts Shared on the host only, as a host allocation would; since every replica is
 *       zero-filled when it is allocated lazily, a replica of a <em>pristine</em> array (never written anywhere)
 *       becomes valid without a copy;</li>
 *   <li>a write at {@code d} → {@code d} Modified, every other location Invalid;</li>
 *   <li>a read at {@code d} → {@code d} Shared (after a copy if it was Invalid); a Modified holder becomes
 *       Shared.</li>
 * </ul>
 * Not thread-safe: owned by the scheduler's thread.
 */
public final class Coherence {
    /** The state of one location. */
    public enum State { MODIFIED, SHARED, INVALID }

    private final int deviceCount;
    private long valid;
    private boolean written;

    public Coherence(int deviceCount) {
        this.deviceCount = deviceCount;
        this.valid = Locations.host(deviceCount);
    }

    /** Bit mask of the locations holding an up-to-date copy. */
    public long validMask() {
        return valid;
    }

    public boolean isValid(int location) {
        return Locations.contains(valid, location);
    }

    public State state(int location) {
        if (!isValid(location)) {
            return State.INVALID;
        }
        return written && Long.bitCount(valid) == 1 ? State.MODIFIED : State.SHARED;
    }

    /** A writer at {@code location}: it becomes the only valid copy. */
    public void write(int location) {
        valid = 1L << location;
        written = true;
    }

    /** A reader at {@code location} now holds a valid copy too. */
    public void read(int location) {
        valid |= 1L << location;
    }

    /** Whether the array was never written, so every replica still holds zeros. */
    public boolean isPristine() {
        return !written;
    }

    public int deviceCount() {
        return deviceCount;
    }

    /** The host's location index. */
    public int host() {
        return deviceCount;
    }
}
