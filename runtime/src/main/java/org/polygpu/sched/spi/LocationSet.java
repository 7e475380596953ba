package org.polygpu.sched.spi;

import java.util.Arrays;

/**
 * An immutable set of locations: device {@code d} is location {@code d} and, in a runtime of {@code n} devices, the
 * host is location {@code n}, matching the row order of the bandwidth matrix.
 *
 * <p>Locations 0 to 63 are the bits of one {@code long}; only a set that holds a location past 63 has more words,
 * one per 64 locations. So in a runtime of at most 63 devices every set is one word and its operations are single
 * bit operations. Every set of locations below 10 (a node of 8 GPUs and its host), every set of one location and
 * every {@link #allDevices} of up to 64 devices is a shared instance, so that the common case allocates nothing and
 * costs about what a bare {@code long} mask did. The type itself has no upper bound (the runtime's is
 * {@link #MAX_DEVICES}).
 *
 * <p>Sets are values: {@link #equals} compares their locations. Operations return {@code this} or an argument when
 * the result holds the same locations, so an unchanged set is not copied. Iterate with {@link #first} and
 * {@link #next}: {@code for (int d = s.first(); d >= 0; d = s.next(d + 1))}. Build sets in loops with
 * {@link Builder}. Thread-safe (immutable).
 */
public final class LocationSet {
    /**
     * The most devices a runtime may have next to the host: 1024, the largest emulated cluster (128 nodes of 8 GPUs,
     * {@code ClusterTopology.MAX_NODES}). Sets are not what limits it: the bandwidth matrix is dense, (n+1)^2
     * entries (8 MiB of doubles at 1024), policies scan every candidate per decision, and the emulator gives each
     * device an address range of 2^40 bytes below its managed memory.
     */
    public static final int MAX_DEVICES = 1024;

    /** The set of no location. */
    public static final LocationSet EMPTY = new LocationSet(0, null);

    /** Locations below this many form sets that are all shared ({@link #SMALL}): 8 GPUs and the host fit. */
    private static final int SMALL_LOCATIONS = 10;
    /** {@code SMALL[b]} is the set whose locations are the bits of {@code b}. */
    private static final LocationSet[] SMALL = new LocationSet[1 << SMALL_LOCATIONS];
    private static final LocationSet[] SINGLES = new LocationSet[Long.SIZE];
    /** {@code PREFIXES[n]} holds locations {@code 0..n-1}, for {@code n} up to 64. */
    private static final LocationSet[] PREFIXES = new LocationSet[Long.SIZE + 1];

    static {
        SMALL[0] = EMPTY;
        for (int b = 1; b < SMALL.length; b++) {
            SMALL[b] = new LocationSet(b, null);
        }
        for (int i = 0; i < Long.SIZE; i++) {
            SINGLES[i] = i < SMALL_LOCATIONS ? SMALL[1 << i] : new LocationSet(1L << i, null);
            PREFIXES[i] = i <= SMALL_LOCATIONS ? SMALL[(1 << i) - 1] : new LocationSet(-1L >>> (Long.SIZE - i), null);
        }
        PREFIXES[Long.SIZE] = new LocationSet(-1L, null);
    }

    /** Locations 0..63. */
    private final long low;
    /** Word {@code i} holds locations {@code 64(i+1)..64(i+1)+63}; null when none is set, else its last is not 0. */
    private final long[] high;

    private LocationSet(long low, long[] high) {
        this.low = low;
        this.high = high;
    }

    /** The set of one location. */
    public static LocationSet of(int location) {
        checkLocation(location);
        if (location < Long.SIZE) {
            return SINGLES[location];
        }
        long[] high = new long[(location >>> 6)];
        high[high.length - 1] = 1L << location;
        return new LocationSet(0, high);
    }

    /** The set of the given locations. */
    public static LocationSet of(int... locations) {
        Builder b = new Builder();
        for (int location : locations) {
            b.add(location);
        }
        return b.build();
    }

    /** The set whose locations are the bits of {@code bits}: bit {@code i} is location {@code i}. */
    public static LocationSet ofBits(long bits) {
        if (bits >>> SMALL_LOCATIONS == 0) {
            return SMALL[(int) bits];
        }
        return (bits & bits - 1) == 0 ? SINGLES[Long.numberOfTrailingZeros(bits)] : new LocationSet(bits, null);
    }

    /** Locations {@code from..to-1}. */
    public static LocationSet range(int from, int to) {
        checkLocation(from);
        if (to < from) {
            throw new IllegalArgumentException("location range " + from + ".." + to + " ends before it starts");
        }
        if (to <= Long.SIZE) {
            return from == 0 ? PREFIXES[to] : to == from ? EMPTY : ofBits(-1L >>> (Long.SIZE - (to - from)) << from);
        }
        Builder b = new Builder();
        for (int i = from; i < to; i++) {
            b.add(i);
        }
        return b.build();
    }

    /** The host of a runtime of {@code deviceCount} devices. */
    public static LocationSet host(int deviceCount) {
        return of(deviceCount);
    }

    /** Every device {@code 0..deviceCount-1}, without the host. */
    public static LocationSet allDevices(int deviceCount) {
        return range(0, deviceCount);
    }

    /** Whether {@code location} is in the set; false for a negative one. */
    public boolean contains(int location) {
        return location >>> 6 == 0 ? (low >>> location & 1) != 0 : high != null && containsHigh(location);
    }

    public boolean isEmpty() {
        return low == 0 && high == null;
    }

    /** The number of locations. */
    public int size() {
        return high == null ? Long.bitCount(low) : Long.bitCount(low) + sizeHigh();
    }

    /** The lowest location, or -1 when the set is empty. */
    public int first() {
        return low != 0 ? Long.numberOfTrailingZeros(low) : high == null ? -1 : nextHigh(Long.SIZE);
    }

    /** The lowest location at least {@code from}, or -1 when there is none. */
    public int next(int from) {
        if (from >>> 6 == 0) {
            long m = low & -1L << from;
            return m != 0 ? Long.numberOfTrailingZeros(m) : high == null ? -1 : nextHigh(Long.SIZE);
        }
        checkLocation(from);
        return high == null ? -1 : nextHigh(from);
    }

    /** This set and {@code location}. */
    public LocationSet with(int location) {
        if (location >>> 6 == 0 && high == null) {
            long l = low | 1L << location;
            return l == low ? this : ofBits(l);
        }
        return contains(location) ? this : union(of(location));
    }

    /** This set without {@code location}. */
    public LocationSet without(int location) {
        if (!contains(location)) {
            return this;
        }
        return location < Long.SIZE ? make(low & ~(1L << location), high) : minus(of(location));
    }

    /** The locations in this set or in {@code other}. */
    public LocationSet union(LocationSet other) {
        if (high == null && other.high == null) {
            long l = low | other.low;
            return l == low ? this : l == other.low ? other : ofBits(l);
        }
        return unionWide(other);
    }

    /** The locations in both this set and {@code other}. */
    public LocationSet intersection(LocationSet other) {
        if (high == null || other.high == null) {
            long l = low & other.low;
            return l == low && high == null ? this : l == other.low && other.high == null ? other : ofBits(l);
        }
        return intersectionWide(other);
    }

    /** The locations in this set and not in {@code other}. */
    public LocationSet minus(LocationSet other) {
        long l = low & ~other.low;
        if (high == null) {
            return l == low ? this : ofBits(l);
        }
        return other.high == null ? l == low ? this : new LocationSet(l, high) : minusWide(other);
    }

    // The wide cases, kept out of the methods above so that those stay small enough to be inlined.

    private boolean containsHigh(int location) {
        int w = (location >>> 6) - 1;
        return location > 0 && w < high.length && (high[w] >>> location & 1) != 0;
    }

    private int sizeHigh() {
        int n = 0;
        for (long w : high) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /** The lowest location at least {@code from}, which is at least 64, in the high words. */
    private int nextHigh(int from) {
        int w = (from >>> 6) - 1;
        if (w >= high.length) {
            return -1;
        }
        for (long m = high[w] & -1L << from; ; m = high[w]) {
            if (m != 0) {
                return (w + 1 << 6) + Long.numberOfTrailingZeros(m);
            }
            if (++w == high.length) {
                return -1;
            }
        }
    }

    private LocationSet unionWide(LocationSet other) {
        long[] longer = high == null || other.high != null && other.high.length > high.length ? other.high : high;
        long[] shorter = longer == high ? other.high : high;
        long[] h = longer.clone();
        for (int i = 0; shorter != null && i < shorter.length; i++) {
            h[i] |= shorter[i];
        }
        return make(low | other.low, h);
    }

    private LocationSet intersectionWide(LocationSet other) {
        long[] h = new long[Math.min(high.length, other.high.length)];
        for (int i = 0; i < h.length; i++) {
            h[i] = high[i] & other.high[i];
        }
        return make(low & other.low, h);
    }

    private LocationSet minusWide(LocationSet other) {
        long[] h = high.clone();
        for (int i = 0; i < Math.min(h.length, other.high.length); i++) {
            h[i] &= ~other.high[i];
        }
        return make(low & ~other.low, h);
    }

    /** Whether this set and {@code other} share a location. */
    public boolean intersects(LocationSet other) {
        if ((low & other.low) != 0) {
            return true;
        }
        if (high == null || other.high == null) {
            return false;
        }
        for (int i = 0; i < Math.min(high.length, other.high.length); i++) {
            if ((high[i] & other.high[i]) != 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocationSet s && s.low == low && Arrays.equals(s.high, high);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(low) * 31 + Arrays.hashCode(high);
    }

    /** The locations in increasing order, such as {@code {0, 3, 70}}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (int d = first(); d >= 0; d = next(d + 1)) {
            b.append(b.length() > 1 ? ", " : "").append(d);
        }
        return b.append('}').toString();
    }

    /** The set of {@code low} and the words {@code high}, trimmed of trailing zero words ({@code high} is owned). */
    private static LocationSet make(long low, long[] high) {
        int n = high == null ? 0 : high.length;
        while (n > 0 && high[n - 1] == 0) {
            n--;
        }
        if (n == 0) {
            return ofBits(low);
        }
        return new LocationSet(low, n == high.length ? high : Arrays.copyOf(high, n));
    }

    private static void checkLocation(int location) {
        if (location < 0) {
            throw new IllegalArgumentException("a location is a device number or the host's, at least 0; got "
                    + location);
        }
    }

    /**
     * A mutable set being built, for loops that add many locations: {@link #build} makes the immutable set. Not
     * thread-safe.
     */
    public static final class Builder {
        private long low;
        private long[] high;

        /** A builder of the empty set. */
        public Builder() {
        }

        /** Adds {@code location}. */
        public Builder add(int location) {
            checkLocation(location);
            if (location < Long.SIZE) {
                low |= 1L << location;
                return this;
            }
            int w = (location >>> 6) - 1;
            if (high == null || w >= high.length) {
                high = high == null ? new long[w + 1] : Arrays.copyOf(high, Math.max(w + 1, 2 * high.length));
            }
            high[w] |= 1L << location;
            return this;
        }

        /** The set of the locations added so far; the builder may go on. */
        public LocationSet build() {
            return make(low, high == null ? null : high.clone());
        }
    }
}
