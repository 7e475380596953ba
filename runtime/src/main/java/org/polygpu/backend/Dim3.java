package org.polygpu.backend;

/** A 3-D extent of a grid or block; every component at least 1. */
public record Dim3(int x, int y, int z) {
    public Dim3 {
        if (x < 1 || y < 1 || z < 1) {
            throw new IllegalArgumentException("dimensions must be at least 1, got (" + x + ", " + y + ", " + z + ")");
        }
    }

    public static Dim3 of(int x) {
        return new Dim3(x, 1, 1);
    }

    public long count() {
        return (long) x * y * z;
    }
}
