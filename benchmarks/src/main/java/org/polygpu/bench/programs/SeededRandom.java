package org.polygpu.bench.programs;

/**
 * The benchmarks' input generator, {@code s = (1103515245 s + 12345) mod 2^31}, written the same way in the Python
 * and JavaScript versions so that the three hosts compute the same numbers.
 */
public final class SeededRandom {
    private int state;

    public SeededRandom(int seed) {
        state = seed;
    }

    public int nextInt() {
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF;
        return state;
    }

    /** A multiple of 2^-bits in [0, 1), exact in float for bits <= 24. */
    public double uniform(int bits) {
        return (nextInt() >>> (31 - bits)) / (double) (1 << bits);
    }

    public float[] floats(int n, double low, double high, int bits) {
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            out[i] = (float) (low + (high - low) * uniform(bits));
        }
        return out;
    }

    public float[] floats(int n, double low, double high) {
        return floats(n, low, high, 24);
    }
}
