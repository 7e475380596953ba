package org.polygpu.topology;

import java.util.Arrays;

/**
 * The interconnect bandwidth matrix in GB/s between every pair of locations: GPUs {@code 0..n-1} first, the host
 * last (index {@link #hostIndex()}). The diagonal holds on-device copy bandwidth and the host-host entry is 0. The
 * matrices the policies read are symmetric (GrCUDA averages a link's two directions); an emulator's, read as written,
 * may differ by direction.
 *
 * <p>Immutable: the constructor copies its argument and accessors never expose the backing array.
 */
public final class BandwidthMatrix {
    private final double[][] values;
    private final int gpuCount;

    /**
     * @param values square matrix of {@code gpus + 1} rows, host last; every entry finite and non-negative
     */
    public BandwidthMatrix(double[][] values) {
        if (values.length < 2) {
            throw new IllegalArgumentException("a bandwidth matrix needs at least one GPU and the host, got "
                    + values.length + " rows");
        }
        this.values = new double[values.length][];
        for (int i = 0; i < values.length; i++) {
            if (values[i].length != values.length) {
                throw new IllegalArgumentException("bandwidth matrix row " + i + " has " + values[i].length
                        + " columns, expected " + values.length);
            }
            for (double v : values[i]) {
                if (!(v >= 0) || Double.isInfinite(v)) {
                    throw new IllegalArgumentException("bandwidth matrix row " + i + " holds " + v
                            + ": bandwidths are finite and non-negative");
                }
            }
            this.values[i] = values[i].clone();
        }
        this.gpuCount = values.length - 1;
    }

    /** Number of GPUs described (the host is not counted). */
    public int gpuCount() {
        return gpuCount;
    }

    /** Index of the host row and column, always the last one. */
    public int hostIndex() {
        return gpuCount;
    }

    /** Bandwidth in GB/s between two locations (GPU index or {@link #hostIndex()}). */
    public double bandwidth(int from, int to) {
        return values[from][to];
    }

    /** A copy of the matrix as rows, host last. */
    public double[][] toArray() {
        double[][] copy = new double[values.length][];
        for (int i = 0; i < values.length; i++) {
            copy[i] = values[i].clone();
        }
        return copy;
    }

    /** The matrix restricted to the first {@code gpus} GPUs and the host, for runs that use fewer devices. */
    public BandwidthMatrix restrictedTo(int gpus) {
        if (gpus < 1 || gpus > gpuCount) {
            throw new IllegalArgumentException("cannot restrict a " + gpuCount + "-GPU bandwidth matrix to "
                    + gpus + " GPUs");
        }
        double[][] r = new double[gpus + 1][gpus + 1];
        for (int i = 0; i <= gpus; i++) {
            int si = i == gpus ? gpuCount : i;
            for (int j = 0; j <= gpus; j++) {
                r[i][j] = values[si][j == gpus ? gpuCount : j];
            }
        }
        return new BandwidthMatrix(r);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BandwidthMatrix m && Arrays.deepEquals(values, m.values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
