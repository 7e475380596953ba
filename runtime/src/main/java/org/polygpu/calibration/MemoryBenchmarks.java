package org.polygpu.calibration;

import java.util.List;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;

/**
 * The memory system's microbenchmarks: streaming loads and stores over {@link CalibrationSettings#streamBytes()}
 * (coalesced, strided by 2 to 32 floats, scattered), the same from one thread block (one SM), loads of a buffer that
 * stays in L2, and pointer chases for the load-to-use latency of device memory and of L2.
 */
final class MemoryBenchmarks {
    /** Strides, in 4-byte elements, of the streaming benchmarks; 0 stands for scattered. */
    static final List<Integer> STRIDES = List.of(1, 2, 4, 8, 16, 32, 0);
    /** Loads (or stores) per thread of the full-grid streaming kernels. */
    static final int PER_THREAD = 4;
    /** Threads per block of every kernel but the one-warp chains. */
    static final int BLOCK = 256;
    /** Dependent loads of one pointer chase. */
    static final int CHASE_STEPS = 2048;

    private final Bench bench;
    private final CalibrationKernels kernels;
    private final DeviceBuffer buffer;
    private final DeviceBuffer l2;
    private final DeviceBuffer out;

    /**
     * {@code buffer} holds {@code streamBytes}, {@code l2} exactly {@code l2Bytes} (the L2 benchmarks pass only what
     * they touch, so that a model deciding L2 residency from a launch's buffers sees them fit); {@code out} is where
     * kernels would store results (never do).
     */
    MemoryBenchmarks(Bench bench, CalibrationKernels kernels, DeviceBuffer buffer, DeviceBuffer l2,
                     DeviceBuffer out) {
        this.bench = bench;
        this.kernels = kernels;
        this.buffer = buffer;
        this.l2 = l2;
        this.out = out;
    }

    /** {@code load} or {@code store} at every stride: bytes the kernel asks for (4 per access). */
    void streams(String kind, List<Measurement> rows) {
        long elements = bench.settings.streamBytes() / 4;
        for (int stride : STRIDES) {
            // Scattered accesses touch as many sectors as stride 32 does: one per lane.
            long threads = elements / PER_THREAD / (stride == 0 ? 32 : stride);
            double nanos = stream(kind, threads, stride, PER_THREAD, grid(threads), BLOCK);
            rows.add(new Measurement(kind, stride == 0 ? "scattered" : "stride-" + stride, "bytes",
                    4.0 * threads * PER_THREAD, nanos));
        }
    }

    /**
     * {@code load-one-block} and {@code store-one-block}: one block of up to 1024 threads, coalesced 16-byte accesses
     * (so that one SM's share of the memory system, not its issue rate, bounds them).
     */
    void oneBlock(List<Measurement> rows) {
        int threads = Math.min(1024, bench.backend.deviceProperties(bench.device).maxThreadsPerBlock());
        int iterations = (int) Math.max(8, bench.settings.oneBlockBytes() / 16 / threads / 8 * 8);
        double bytes = 16.0 * threads * iterations;
        LaunchConfig config = LaunchConfig.of(1, threads);
        rows.add(new Measurement("load-one-block", "stride-1", "bytes", bytes,
                bench.kernel(kernels.function("load_block4"), config, buffer, out, iterations)));
        rows.add(new Measurement("store-one-block", "stride-1", "bytes", bytes,
                bench.kernel(kernels.function("store_block4"), config, buffer, iterations)));
    }

    /**
     * {@code load-l2}: the whole device reading the {@code l2Bytes} buffer twice over (it stays in L2 from the
     * launches before: L2 bandwidth; more passes would measure what the SMs' caches serve).
     */
    void l2(List<Measurement> rows) {
        long elements = bench.settings.l2Bytes() / 4;
        long threads = Math.min(fullGrid(bench.backend.deviceProperties(bench.device).multiprocessors()),
                elements / 8);
        int iterations = (int) (elements / threads / 8 * 8);
        int passes = 2;
        double nanos = bench.kernel(kernels.function("load_passes"), launch(grid(threads), BLOCK), l2, out, threads,
                iterations, passes);
        rows.add(new Measurement("load-l2", Long.toString(bench.settings.l2Bytes()), "bytes",
                4.0 * threads * iterations * passes, nanos));
    }

    /** {@code chase-dram} over the stream buffer and {@code chase-l2} over the L2 buffer: dependent loads. */
    void chases(List<Measurement> rows) {
        long elements = bench.settings.streamBytes() / 4;
        // Hops of a little over 4 KiB: each load on another line and DRAM page, the span of one launch within reach
        // of the TLBs. The DRAM chase resumes where the last launch stopped (never a line loaded before: device
        // memory); the L2 chase walks the same lines in every launch (after the warm-ups: L2).
        rows.add(chase("chase-dram", buffer, elements, 1057, 1));
        rows.add(chase("chase-l2", l2, bench.settings.l2Bytes() / 4, 1025, 0));
    }

    private Measurement chase(String name, DeviceBuffer chain, long elements, int step, int resume) {
        FunctionHandle init = kernels.function("chase_init");
        bench.backend.launch(init, launch(grid(elements), BLOCK), new Object[] {chain, elements, step,
                (int) (elements - 1)}, bench.stream, Bench.LABEL);
        double nanos = bench.kernel(kernels.function("chase"), LaunchConfig.of(1, 1), chain, out, CHASE_STEPS,
                resume);
        return new Measurement(name, Long.toString(elements * 4), "loads", CHASE_STEPS, nanos);
    }

    private double stream(String kind, long threads, int stride, int iterations, long blocks, int block) {
        long mask = bench.settings.streamBytes() / 4 - 1;
        LaunchConfig config = launch(blocks, block);
        return kind.equals("load")
                ? bench.kernel(kernels.function("load_stride"), config, buffer, out, threads, stride, iterations, mask)
                : bench.kernel(kernels.function("store_stride"), config, buffer, threads, stride, iterations, mask);
    }

    /** Threads that fill every one of {@code sms} SMs: four blocks of {@link #BLOCK} per SM. */
    static long fullGrid(int sms) {
        return 4L * BLOCK * sms;
    }

    static long grid(long threads) {
        return (threads + BLOCK - 1) / BLOCK;
    }

    static LaunchConfig launch(long blocks, int block) {
        return LaunchConfig.of(Math.toIntExact(blocks), block);
    }
}
