package org.polygpu.policies;

/**
 * When, on the backend's clock, each device is predicted to be done with the work {@code earliest-finish-time} knows
 * of, after the emulator's and a GPU's way of running kernels side by side: a kernel occupying the fraction
 * {@code s} of its device uses {@code s} of the device's capacity while it runs, kernels whose fractions add up to
 * at most 1 do not slow one another, and beyond that the device's capacity is what is shared. Per device:
 *
 * <ul>
 *   <li>{@code capacityFree}: when the capacity taken by the queued kernels, {@code s} times their duration each,
 *       is used up; a kernel starting at {@code t} ends at {@code max(t + d, max(t, capacityFree) + s d)};
 *   <li>{@code lastFinish}: when the last queued kernel is predicted to end (what a replica there waits for);
 *   <li>{@code hostLinkFree}: when the copies queued on its host link are done.
 * </ul>
 *
 * Times before now mean now. Predictions are corrected by what is seen: once every launch enqueued on a device is
 * seen to finish, whatever was predicted beyond now is dropped.
 *
 * <p>Not thread-safe: belongs to one policy.
 */
final class DeviceHorizons {
    private final long[] capacityFree;
    private final long[] lastFinish;
    private final long[] hostLinkFree;
    private final int[] unfinished;

    DeviceHorizons(int deviceCount) {
        capacityFree = new long[deviceCount];
        lastFinish = new long[deviceCount];
        hostLinkFree = new long[deviceCount];
        unfinished = new int[deviceCount];
    }

    /** When a kernel of {@code nanos} using {@code occupancy} of {@code device} ends if it starts at {@code start}. */
    long finish(int device, long start, long nanos, double occupancy) {
        return Math.max(start + nanos, Math.max(start, capacityFree[device]) + Math.round(occupancy * nanos));
    }

    /** When the kernels queued on {@code device} are predicted to have ended, no earlier than {@code now}. */
    long kernelsDone(int device, long now) {
        return Math.max(now, lastFinish[device]);
    }

    /** When the host link of {@code device} will have done the copies queued on it, no earlier than {@code now}. */
    long hostLinkFree(int device, long now) {
        return Math.max(now, hostLinkFree[device]);
    }

    /**
     * A launch was enqueued on {@code device} at {@code now}: its kernel, predicted to start at {@code start}, and
     * its copies over the host link queue up.
     */
    void enqueued(int device, long now, long start, long nanos, double occupancy, long hostCopyNanos) {
        lastFinish[device] = Math.max(lastFinish[device], finish(device, start, nanos, occupancy));
        capacityFree[device] = Math.max(now, capacityFree[device]) + Math.round(occupancy * nanos);
        hostLinkFree[device] = hostLinkFree(device, now) + hostCopyNanos;
        unfinished[device]++;
    }

    /** A launch on {@code device} was seen to finish at {@code now} (or was abandoned). */
    void finished(int device, long now) {
        if (--unfinished[device] <= 0) {
            unfinished[device] = 0;
            capacityFree[device] = Math.min(capacityFree[device], now);
            lastFinish[device] = Math.min(lastFinish[device], now);
            hostLinkFree[device] = Math.min(hostLinkFree[device], now);
        }
    }
}
