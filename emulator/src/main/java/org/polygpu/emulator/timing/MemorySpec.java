package org.polygpu.emulator.timing;

/**
 * The memory system of a device model ({@link MemoryTiming}).
 *
 * @param dramGBps      device-memory bandwidth the whole device reaches, GB/s (bytes per nanosecond)
 * @param dramLatencyNs time from a warp's global load to its data when the data comes from device memory
 * @param l2Bytes       L2 cache size: a launch whose buffers fit is served from L2
 * @param l2GBps        L2 bandwidth of the whole device, GB/s
 * @param l2LatencyNs   load-to-use latency of an L2 hit
 * @param smGBps        bytes one SM's L1 serves per nanosecond at most, each warp access counting 128 bytes per
 *                      distinct 128-byte line it touches (one wavefront); a grid of fewer blocks than SMs gets only
 *                      this much per SM it uses
 * @param sectorBytes   bytes of the unit global memory moves in (32 on every NVIDIA GPU since Maxwell)
 * @param sharedBanks   shared-memory banks (4 bytes wide); lanes of one warp hitting different words of one bank
 *                      serialise
 */
public record MemorySpec(double dramGBps, double dramLatencyNs, long l2Bytes, double l2GBps, double l2LatencyNs,
                         double smGBps, int sectorBytes, int sharedBanks) {
    public MemorySpec {
        Checks.positive("memory.dramGBps", dramGBps);
        Checks.nonNegative("memory.dramLatencyNs", dramLatencyNs);
        Checks.nonNegative("memory.l2Bytes", l2Bytes);
        Checks.positive("memory.l2GBps", l2GBps);
        Checks.nonNegative("memory.l2LatencyNs", l2LatencyNs);
        Checks.positive("memory.smGBps", smGBps);
        Checks.positive("memory.sectorBytes", sectorBytes);
        Checks.positive("memory.sharedBanks", sharedBanks);
    }
}
