package org.polygpu.sched.spi;

/**
 * Snapshot of one computation's data and of the devices' load, built by the scheduler for a single decision.
 *
 * <p>Index {@code i} of {@code argumentBytes} and {@code validLocations} describes the computation's {@code i}-th
 * array argument (scalars are not listed). Location masks use bit {@code d} for device {@code d} and bit
 * {@code deviceCount} for the host (see {@link Locations}). The arrays are owned by the request: the scheduler
 * builds a new one per decision and policies must not modify them.
 *
 * @param argumentBytes  size in bytes of each array argument
 * @param validLocations for each array argument, the locations holding an up-to-date copy
 * @param busyStreams    per device, the number of streams with unfinished work
 */
public record SelectionRequest(long[] argumentBytes, long[] validLocations, int[] busyStreams) {
    public SelectionRequest {
        if (argumentBytes.length != validLocations.length) {
            throw new IllegalArgumentException("argumentBytes and validLocations differ in length: "
                    + argumentBytes.length + " vs " + validLocations.length);
        }
    }

    /** Number of devices described by {@link #busyStreams()}. */
    public int deviceCount() {
        return busyStreams.length;
    }
}
