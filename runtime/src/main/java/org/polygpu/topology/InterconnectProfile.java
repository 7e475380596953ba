package org.polygpu.topology;

import java.util.Arrays;

/**
 * The directed bandwidths an {@link InterconnectProfiler} measured, in GB/s (10^9 bytes per second): entry
 * {@code [from][to]} over GPUs {@code 0..n-1} and the host last, the diagonal holding on-device copies and the
 * host-host entry 0. Unlike a {@link BandwidthMatrix}, both directions of a link are kept as measured.
 *
 * @param gigabytesPerSecond square matrix of {@code n + 1} rows, host last; every entry finite and non-negative
 * @param bytes              bytes of the larger copy each entry was timed with
 * @param repeats            timed repetitions per copy size (the median was taken)
 */
public record InterconnectProfile(double[][] gigabytesPerSecond, long bytes, int repeats) {
    public InterconnectProfile {
        int n = gigabytesPerSecond.length;
        if (n < 2) {
            throw new IllegalArgumentException("a profile needs at least one GPU and the host, got " + n + " rows");
        }
        double[][] copy = new double[n][];
        for (int i = 0; i < n; i++) {
            if (gigabytesPerSecond[i].length != n) {
                throw new IllegalArgumentException("profile row " + i + " has " + gigabytesPerSecond[i].length
                        + " columns, expected " + n);
            }
            for (double v : gigabytesPerSecond[i]) {
                if (!(v >= 0) || Double.isInfinite(v)) {
                    throw new IllegalArgumentException("profile row " + i + " holds " + v
                            + ": bandwidths are finite and non-negative");
                }
            }
            copy[i] = gigabytesPerSecond[i].clone();
        }
        gigabytesPerSecond = copy;
    }

    /** A copy of the matrix, host last. */
    @Override
    public double[][] gigabytesPerSecond() {
        double[][] copy = new double[gigabytesPerSecond.length][];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = gigabytesPerSecond[i].clone();
        }
        return copy;
    }

    public int gpuCount() {
        return gigabytesPerSecond.length - 1;
    }

    /** GB/s measured from {@code from} to {@code to}, each a GPU index or {@code -1} for the host. */
    public double bandwidth(int from, int to) {
        return gigabytesPerSecond[index(from)][index(to)];
    }

    /**
     * The matrix the runtime uses, exactly as if the profile were written as CSV and loaded back (values floored,
     * both directions averaged): {@code BandwidthMatrixLoader.parse(BandwidthMatrixWriter.toCsv(this))}.
     */
    public BandwidthMatrix toMatrix() {
        return BandwidthMatrixLoader.parse(BandwidthMatrixWriter.toCsv(this), "the measured profile");
    }

    private int index(int location) {
        if (location < -1 || location >= gpuCount()) {
            throw new IllegalArgumentException("location " + location + " is out of range: -1 (host) or 0.."
                    + (gpuCount() - 1));
        }
        return location < 0 ? gpuCount() : location;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InterconnectProfile p && bytes == p.bytes && repeats == p.repeats
                && Arrays.deepEquals(gigabytesPerSecond, p.gigabytesPerSecond);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(gigabytesPerSecond) * 31 + Long.hashCode(bytes) * 17 + repeats;
    }

    @Override
    public String toString() {
        return "InterconnectProfile" + Arrays.deepToString(gigabytesPerSecond) + " (" + bytes + " bytes, "
                + repeats + " repeats)";
    }
}
