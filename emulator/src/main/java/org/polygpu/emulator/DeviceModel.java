package org.polygpu.emulator;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.emulator.ptx.KernelCounters;

/**
 * The capacity and speed of one emulated GPU: what {@link EmulatedBackend#deviceProperties} reports and what the
 * kernel timing model uses. The presets {@link #V100}, {@link #A100} and {@link #H100} follow NVIDIA's datasheets
 * for the SXM parts; custom models (for example {@link #withTotalMemory}) answer what-if questions.
 *
 * @param name                    device name as reported, e.g. {@code Tesla V100-SXM2-16GB (emulated)}
 * @param computeMajor            compute capability, major part
 * @param computeMinor            compute capability, minor part
 * @param multiprocessors         number of SMs
 * @param clockKhz                SM boost clock in kHz
 * @param totalMemory             bytes of device memory; allocations are checked against it, but only the bytes
 *                                requested are really allocated
 * @param memoryBandwidthGbps     device memory bandwidth in GB/s (10^9 bytes per second, so bytes per nanosecond)
 * @param peakGflops              peak FP32 rate in GFLOP/s (so floating-point operations per nanosecond)
 * @param maxThreadsPerBlock      threads in one block at most
 * @param maxSharedMemoryPerBlock shared memory bytes per block at most
 * @param warpSize                threads per warp
 */
public record DeviceModel(String name, int computeMajor, int computeMinor, int multiprocessors, int clockKhz,
                          long totalMemory, double memoryBandwidthGbps, double peakGflops, int maxThreadsPerBlock,
                          int maxSharedMemoryPerBlock, int warpSize) {
    /** Tesla V100 SXM2 16 GB: compute 7.0, 80 SMs, 900 GB/s HBM2, 15.7 TFLOP/s FP32. */
    public static final DeviceModel V100 = new DeviceModel("Tesla V100-SXM2-16GB (emulated)", 7, 0, 80, 1_530_000,
            16L << 30, 900, 15_700, 1024, 48 << 10, 32);

    /** A100 SXM4 40 GB: compute 8.0, 108 SMs, 1555 GB/s HBM2, 19.5 TFLOP/s FP32. */
    public static final DeviceModel A100 = new DeviceModel("NVIDIA A100-SXM4-40GB (emulated)", 8, 0, 108, 1_410_000,
            40L << 30, 1555, 19_500, 1024, 48 << 10, 32);

    /** H100 SXM5 80 GB: compute 9.0, 132 SMs, 3350 GB/s HBM3, 67 TFLOP/s FP32. */
    public static final DeviceModel H100 = new DeviceModel("NVIDIA H100 80GB HBM3 (emulated)", 9, 0, 132, 1_980_000,
            80L << 30, 3350, 67_000, 1024, 48 << 10, 32);

    private static final List<String> PRESET_NAMES = List.of("V100", "A100", "H100");

    /** Resident warps per SM the timing model needs to reach full speed ({@link #kernelNanos}). */
    public static final int WARPS_TO_HIDE_LATENCY = 8;

    public DeviceModel {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a device model needs a name");
        }
        requirePositive("multiprocessors", multiprocessors);
        requirePositive("clockKhz", clockKhz);
        requirePositive("totalMemory", totalMemory);
        requirePositive("maxThreadsPerBlock", maxThreadsPerBlock);
        requirePositive("warpSize", warpSize);
        if (computeMajor < 1 || computeMinor < 0) {
            throw new IllegalArgumentException("invalid compute capability " + computeMajor + "." + computeMinor);
        }
        if (maxSharedMemoryPerBlock < 0) {
            throw new IllegalArgumentException("maxSharedMemoryPerBlock must be non-negative, got "
                    + maxSharedMemoryPerBlock);
        }
        if (!(memoryBandwidthGbps > 0) || Double.isInfinite(memoryBandwidthGbps)) {
            throw new IllegalArgumentException("memoryBandwidthGbps must be positive and finite, got "
                    + memoryBandwidthGbps);
        }
        if (!(peakGflops > 0) || Double.isInfinite(peakGflops)) {
            throw new IllegalArgumentException("peakGflops must be positive and finite, got " + peakGflops);
        }
    }

    /**
     * The virtual architecture CUDA source is compiled to PTX for on this model, its own compute capability
     * ({@code compute_70} for the V100, {@code compute_80} for the A100, {@code compute_90} for the H100), so that
     * intrinsics of later architectures ({@code __reduce_add_sync} from 8.0) compile where the modeled GPU has them
     * and fail with NVRTC's message where it does not.
     */
    public String ptxArchitecture() {
        return "compute_" + computeMajor + computeMinor;
    }

    /** The names {@link #preset} accepts, in a fixed order. */
    public static List<String> presetNames() {
        return PRESET_NAMES;
    }

    /**
     * The preset called {@code name}, ignoring case.
     *
     * @throws IllegalArgumentException listing the valid names when there is no such preset
     */
    public static DeviceModel preset(String name) {
        Objects.requireNonNull(name, "name");
        return switch (name.strip().toUpperCase(Locale.ROOT)) {
            case "V100" -> V100;
            case "A100" -> A100;
            case "H100" -> H100;
            default -> throw new IllegalArgumentException("unknown device model '" + name + "': valid models are "
                    + String.join(", ", PRESET_NAMES));
        };
    }

    /** This model with a different memory size, e.g. to study a workload that does not fit. */
    public DeviceModel withTotalMemory(long bytes) {
        return new DeviceModel(name, computeMajor, computeMinor, multiprocessors, clockKhz, bytes,
                memoryBandwidthGbps, peakGflops, maxThreadsPerBlock, maxSharedMemoryPerBlock, warpSize);
    }

    /** The properties the backend reports for a device of this model. */
    public DeviceProperties properties() {
        return new DeviceProperties(name, computeMajor, computeMinor, totalMemory, multiprocessors, clockKhz,
                maxThreadsPerBlock, maxSharedMemoryPerBlock, warpSize);
    }

    /**
     * Roofline execution time of {@code work} in nanoseconds, launch latency excluded: the larger of the compute
     * time at the peak rate and the memory time at full bandwidth, rounded up to a whole nanosecond.
     */
    public long rooflineNanos(KernelWork work) {
        return VirtualTime.ceilNanos(Math.max(work.flops() / peakGflops, work.bytes() / memoryBandwidthGbps));
    }

    /**
     * Execution time in nanoseconds of a PTX launch that produced {@code counters}, launch latency excluded: a
     * roofline scaled by occupancy,
     * <pre>
     *   compute   = warpInstructions / (peakGflops / 64)
     *   memory    = globalSectors * 32 / memoryBandwidthGbps
     *   occupancy = min(1, warps / (multiprocessors * {@value #WARPS_TO_HIDE_LATENCY}))
     *   time      = max(compute, memory) / occupancy
     * </pre>
     * rounded up to a whole nanosecond. The SMs issue {@code peakGflops / 64} warp instructions per nanosecond (an
     * FP32 fused multiply-add warp instruction is 64 floating-point operations), so divergence, which issues more
     * warp instructions for the same work, costs time as on the GPU. Memory time counts 32-byte sectors, so
     * uncoalesced accesses cost more bytes. A grid with fewer than {@value #WARPS_TO_HIDE_LATENCY} warps per SM
     * cannot hide latency or fill the device, and its time grows in proportion.
     */
    public long kernelNanos(KernelCounters counters) {
        double compute = counters.warpInstructions() / (peakGflops / 64);
        double memory = counters.globalSectors() * 32.0 / memoryBandwidthGbps;
        double occupancy = occupancy(counters);
        return occupancy <= 0 ? 0 : VirtualTime.ceilNanos(Math.max(compute, memory) / occupancy);
    }

    /**
     * The fraction of the device a launch that produced {@code counters} can use, in [0, 1]: its warps over the
     * {@value #WARPS_TO_HIDE_LATENCY} per SM that fill the device ({@link #kernelNanos}). Kernels running at once on
     * one device share it by these fractions.
     */
    public double occupancy(KernelCounters counters) {
        return Math.min(1.0, counters.warps() / ((double) multiprocessors * WARPS_TO_HIDE_LATENCY));
    }

    private static void requirePositive(String what, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
    }
}
