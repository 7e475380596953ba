package org.polygpu.calibration;

import java.util.List;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.LaunchConfig;

/**
 * The SMs' microbenchmarks: instruction chains of each class (FP32 and FP64 fused multiply-adds, integer
 * multiply-adds, reciprocal square roots on the special function units), independent on a full grid (throughput)
 * and dependent with one warp per SM (latency); shared-memory accesses at strides 1 to 64 (bank conflicts); atomics
 * on 1 to one address per thread.
 */
final class ComputeBenchmarks {
    /** The instruction classes, as the kernels' name prefixes. */
    static final List<String> CLASSES = List.of("fp32", "fp64", "int32", "sfu");
    /** Instructions of one class per chain per loop iteration: independent chains, the dependent chain. */
    static final int PER_ITERATION = 8;
    static final int DEPENDENT_PER_ITERATION = 32;
    /** Independent chains per thread. */
    static final int CHAINS = 8;
    /** Word strides of the shared-memory benchmark. */
    static final List<Integer> SHARED_STRIDES = List.of(1, 2, 4, 8, 16, 32, 64);
    /** Address counts of the atomics benchmark, besides one per thread. */
    static final List<Integer> ATOMIC_ADDRESSES = List.of(1, 32, 1024, 32768);

    private final Bench bench;
    private final CalibrationKernels kernels;
    private final DeviceBuffer out;
    private final int sms;
    private final int warpSize;

    ComputeBenchmarks(Bench bench, CalibrationKernels kernels, DeviceBuffer out) {
        this.bench = bench;
        this.kernels = kernels;
        this.out = out;
        this.sms = bench.backend.deviceProperties(bench.device).multiprocessors();
        this.warpSize = bench.backend.deviceProperties(bench.device).warpSize();
    }

    /**
     * {@code <class>-independent} (full grid, 8 chains per thread: warp instructions of the class in the whole grid)
     * and {@code <class>-dependent} (one warp per SM, one chain: dependent instructions of one warp).
     */
    void chains(List<Measurement> rows) {
        int dependentIterations = bench.settings.chainIterations() / 4;
        int independentIterations = bench.settings.chainIterations() / PER_ITERATION;
        long threads = MemoryBenchmarks.fullGrid(sms);
        for (String c : CLASSES) {
            Object a = c.equals("fp64") ? (Object) 0.999 : c.equals("int32") ? (Object) 3 : (Object) 0.999f;
            Object b = c.equals("fp64") ? (Object) 0.001 : c.equals("int32") ? (Object) 1 : (Object) 0.001f;
            double independent = bench.kernel(kernels.function(c + "_independent"),
                    MemoryBenchmarks.launch(threads / MemoryBenchmarks.BLOCK, MemoryBenchmarks.BLOCK), out,
                    independentIterations, a, b);
            rows.add(new Measurement(c + "-independent", "full-grid", "warp-instructions",
                    (double) threads / warpSize * CHAINS * PER_ITERATION * independentIterations, independent));
            double dependent = bench.kernel(kernels.function(c + "_dependent"), LaunchConfig.of(sms, warpSize), out,
                    dependentIterations, a, b);
            rows.add(new Measurement(c + "-dependent", "one-warp-per-sm", "instructions-per-warp",
                    (double) DEPENDENT_PER_ITERATION * dependentIterations, dependent));
        }
    }

    /** {@code shared} at every stride: warp accesses (a load and a store per iteration) in the whole grid. */
    void shared(List<Measurement> rows) {
        int iterations = bench.settings.chainIterations() / 4;
        long blocks = 4L * sms;
        for (int stride : SHARED_STRIDES) {
            double nanos = bench.kernel(kernels.function("shared_stride"),
                    MemoryBenchmarks.launch(blocks, MemoryBenchmarks.BLOCK), out, iterations, stride);
            rows.add(new Measurement("shared", "stride-" + stride, "warp-accesses",
                    2.0 * blocks * MemoryBenchmarks.BLOCK / warpSize * iterations, nanos));
        }
    }

    /** {@code atomic} on 1 to one address per thread of a full grid: atomics (one per thread and iteration). */
    void atomics(DeviceBuffer counters, List<Measurement> rows) {
        long threads = MemoryBenchmarks.fullGrid(sms);
        int iterations = Math.max(1, bench.settings.chainIterations() / 64);
        LaunchConfig config = MemoryBenchmarks.launch(threads / MemoryBenchmarks.BLOCK, MemoryBenchmarks.BLOCK);
        for (long addresses : addressCounts(threads)) {
            double nanos = bench.kernel(kernels.function("atomic_add"), config, counters, threads, iterations,
                    (int) addresses);
            rows.add(new Measurement("atomic", "addresses-" + addresses, "atomics", (double) threads * iterations,
                    nanos));
        }
    }

    /** The address counts measured on a grid of {@code threads}: {@link #ATOMIC_ADDRESSES} then one per thread. */
    static List<Long> addressCounts(long threads) {
        return java.util.stream.Stream.concat(ATOMIC_ADDRESSES.stream().map(Integer::longValue)
                .filter(a -> a < threads), java.util.stream.Stream.of(threads)).toList();
    }
}
