/**
 * The device-selection policies of §III-B3 (single-GPU, round-robin, stream-aware, minimum transfer size,
 * min-min and min-max transfer time) and {@code earliest-finish-time}, which learns kernel durations; each
 * registered with {@link java.util.ServiceLoader} under its option value by a nested {@code Provider}. The data-aware policies share {@link org.polygpu.policies.DataLocality} for the
 * exploration threshold and the transfer-time estimate, and fall back to their own round-robin rotation.
 * Memory: among the devices a policy rates equally good, the data-aware policies, {@code stream-aware} and
 * {@code earliest-finish-time} prefer one where the computation fits without evicting replicas
 * ({@link org.polygpu.sched.spi.SelectionRequest#withRoom}); {@code single-gpu} and {@code round-robin} place as
 * they always do.
 */
package org.polygpu.policies;
