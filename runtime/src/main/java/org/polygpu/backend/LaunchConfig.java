package org.polygpu.backend;

/** Grid and block extents of a launch and its dynamic shared memory in bytes. */
public record LaunchConfig(Dim3 grid, Dim3 block, int sharedMemoryBytes) {
    public LaunchConfig {
        if (sharedMemoryBytes < 0) {
            throw new IllegalArgumentException("sharedMemoryBytes must be non-negative, got " + sharedMemoryBytes);
        }
    }

    public static LaunchConfig of(int gridX, int blockX) {
        return new LaunchConfig(Dim3.of(gridX), Dim3.of(blockX), 0);
    }

    public long threadCount() {
        return grid.count() * block.count();
    }
}
