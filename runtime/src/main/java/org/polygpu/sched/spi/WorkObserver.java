package org.polygpu.sched.spi;

/**
 * Told of every kernel launch the scheduler enqueues and of its measured duration once it finished: a
 * device-selection policy that also implements this interface learns how long kernels take and how much work each
 * device has queued. Launches are reported whether the policy placed them or not (a child reusing its parent's
 * stream, a stream the program chose).
 *
 * <p>Durations are read from the backend's events around the kernel alone (copies into its replicas come before
 * the start event), on the backend's clock: virtual on the emulator, the GPU's on CUDA. Called from the scheduler's
 * thread, like {@link DeviceSelectionPolicy#select}.
 */
public interface WorkObserver {
    /**
     * A kernel launch was enqueued on {@code device}.
     *
     * @param workKey   the key its {@link SelectionRequest} would carry ({@link SelectionRequest#workKey()})
     * @param occupancy the fraction of the device the launch can use, in (0, 1]: its warps over the warps that fill
     *                  every multiprocessor ({@value #WARPS_PER_MULTIPROCESSOR} each). Launches whose fractions add
     *                  up to at most 1 can run side by side on one device without slowing one another; beyond, they
     *                  share it
     * @return a value the scheduler hands back to {@link #finished} for this launch, such as the duration the
     *         observer predicted for it
     */
    long enqueued(int device, long workKey, double occupancy);

    /**
     * Resident warps per multiprocessor that a kernel needs to run at full speed, the measure of
     * {@link #enqueued}'s occupancy: enough to hide memory latency, as the emulator's timing model assumes.
     */
    int WARPS_PER_MULTIPROCESSOR = 8;

    /**
     * Whether the launch just reported by {@link #enqueued} should be timed. Timing costs the host one more event
     * record per launch (about as much as the launch call), so an observer that has learned a kernel well may
     * time only some of its launches.
     */
    default boolean wantsDuration(long workKey) {
        return true;
    }

    /**
     * The launch reported by {@link #enqueued} finished, or was abandoned.
     *
     * @param token         what {@link #enqueued} returned for it
     * @param durationNanos the time between its start and its end on the device, or -1 when it was not timed
     *                      ({@link #wantsDuration}) or was abandoned before it ran
     */
    void finished(int device, long workKey, long token, long durationNanos);
}
