package org.polygpu.backend;

import org.polygpu.topology.BandwidthMatrix;

/**
 * A started backend with the bandwidth matrix of its devices and a line saying what was chosen and why (printed
 * once by the launcher, e.g. {@code polygpu: cuda: the CUDA driver found no GPU; using 4 emulated V100 on topology
 * v100x8}).
 *
 * @param backend          the backend, owned by the caller, who closes it
 * @param bandwidth        its devices' interconnect matrix, host last
 * @param source           where the matrix came from (a file path, a preset name, or "measured")
 * @param measuredTopology whether the backend's topology is this machine's, known only by measuring it (real GPUs:
 *                         the matrix is measured, or read from a file of measurements), rather than one the backend
 *                         was configured with (an emulated preset)
 * @param notice           one line for the user
 */
public record OpenedBackend(Backend backend, BandwidthMatrix bandwidth, String source, boolean measuredTopology,
                            String notice) {
    /** This backend with another line for the user. */
    public OpenedBackend withNotice(String newNotice) {
        return new OpenedBackend(backend, bandwidth, source, measuredTopology, newNotice);
    }
}
