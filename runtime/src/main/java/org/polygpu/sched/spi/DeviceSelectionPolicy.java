package org.polygpu.sched.spi;

/**
 * Chooses the device that runs a computation (paper §III-B3).
 *
 * <p>Implementations see only the snapshot they are given: they never call a backend, do I/O, or touch the DAG.
 * They may keep private state (the round-robin cursor). The scheduler calls a policy from one thread at a time.
 */
public interface DeviceSelectionPolicy {
    /**
     * Returns one device out of {@code candidates}.
     *
     * @param request    the computation's arguments and the devices' load, as of now
     * @param candidates the devices allowed; never empty
     */
    int select(SelectionRequest request, LocationSet candidates);
}
