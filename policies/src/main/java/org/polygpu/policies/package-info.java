/**
 * The device-selection policies of §III-B3 (single-GPU, round-robin, stream-aware, minimum transfer size,
 * min-min and min-max transfer time) and {@code earliest-finish-time}, which learns kernel durations; each
 * registered with {@link java.util.ServiceLoader} under its option value by a nested {@code Provider}. The data-aware policies share {@link org.polygpu.policies.DataLocality} for the
 * exploration threshold and the transfer-time estimate, and fall back to their own round-robin rotation.
 */
package org.polygpu.policies;
