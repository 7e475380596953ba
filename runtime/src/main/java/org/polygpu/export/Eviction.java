package org.polygpu.export;

/**
 * A replica the scheduler evicted from a device to make room for a computation: dropped, after a write-back to the
 * host when it held the only valid copy.
 *
 * @param computationId the computation that needed the room
 * @param device        the device the replica was evicted from
 * @param array         the array, as {@code DeviceArray.toString()} names it
 * @param bytes         the replica's size
 * @param writtenBack   whether it was copied to the host first (the only valid copy), or just dropped
 */
public record Eviction(long computationId, int device, String array, long bytes, boolean writtenBack) {
    /** The label of the eviction's write-back copy in the timeline, and the name of its event in the trace. */
    public String name() {
        return "evict " + array + " from device " + device + (writtenBack ? " (written back)" : " (dropped)");
    }
}
