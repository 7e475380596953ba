package org.polygpu.calibration;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.StreamHandle;

/**
 * The sharing of one device between streams: one kernel of {@value #BLOCKS} blocks (fewer than the SMs of a large
 * GPU, as a partitioned program launches) on 1, 2, 4 and 8 streams at once, a memory-bound one ({@code streams})
 * and a compute-bound one ({@code streams-compute}). Each run starts all streams at one event, recorded after a copy
 * that keeps the device busy while the host enqueues the kernels, and lasts until the last stream's kernel ends.
 */
final class StreamBenchmarks {
    /** The stream counts. */
    static final List<Integer> STREAMS = List.of(1, 2, 4, 8);
    /** Blocks of each kernel. */
    static final int BLOCKS = 64;

    /** The arguments of the {@code n}-th launch of a run's kernels. */
    private interface Arguments {
        Object[] of(int n);
    }

    private final Bench bench;
    private final CalibrationKernels kernels;

    StreamBenchmarks(Bench bench, CalibrationKernels kernels) {
        this.bench = bench;
        this.kernels = kernels;
    }

    /**
     * {@code streams} and {@code streams-compute} for every stream count: the run's time (kernels: the count). The
     * memory-bound kernel streams an eighth of {@code buffer}, a different eighth at each launch so that no launch
     * finds its data in L2; the compute-bound one runs the FP32 chains for 4 times the settings' iterations.
     */
    void streams(DeviceBuffer buffer, DeviceBuffer out, DeviceBuffer blocker, MemorySegment pinned,
                 List<Measurement> rows) {
        int slices = STREAMS.getLast();
        long slice = buffer.bytes() / slices;
        long threads = (long) BLOCKS * MemoryBenchmarks.BLOCK;
        int iterations = (int) Math.max(1, slice / 4 / threads);
        run("streams", kernels.function("load_stride"), n -> new Object[] {
                new BufferOffset(buffer, n % slices * slice), out, threads, 1, iterations, 0L}, blocker, pinned, rows);
        int chains = 4 * bench.settings.chainIterations() / ComputeBenchmarks.PER_ITERATION;
        run("streams-compute", kernels.function("fp32_independent"), n -> new Object[] {out, chains, 0.999f, 0.001f},
                blocker, pinned, rows);
    }

    private void run(String name, FunctionHandle kernel, Arguments arguments, DeviceBuffer blocker,
                     MemorySegment pinned, List<Measurement> rows) {
        Backend b = bench.backend;
        LaunchConfig config = LaunchConfig.of(BLOCKS, MemoryBenchmarks.BLOCK);
        List<StreamHandle> streams = new ArrayList<>();
        List<EventHandle> ends = new ArrayList<>();
        EventHandle start = b.createEvent(bench.device);
        int launches = 0;
        try {
            for (int s = 0; s < STREAMS.getLast(); s++) {
                streams.add(b.createStream(bench.device));
                ends.add(b.createEvent(bench.device));
            }
            for (int k : STREAMS) {
                double[] nanos = new double[bench.settings.repeats()];
                for (int r = -bench.settings.warmups(); r < nanos.length; r++) {
                    b.copyHostToDevice(pinned, blocker, blocker.bytes(), bench.stream, Bench.LABEL);
                    b.recordEvent(start, bench.stream);
                    for (int s = 0; s < k; s++) {
                        b.streamWaitEvent(streams.get(s), start);
                        b.launch(kernel, config, arguments.of(launches++), streams.get(s), Bench.LABEL);
                        b.recordEvent(ends.get(s), streams.get(s));
                    }
                    b.synchronizeAll();
                    double last = 0;
                    for (int s = 0; s < k; s++) {
                        last = Math.max(last, b.elapsedMillis(start, ends.get(s)) * 1e6);
                    }
                    if (r >= 0) {
                        nanos[r] = last;
                    }
                }
                rows.add(new Measurement(name, Integer.toString(k), "kernels", k, Bench.median(nanos)));
            }
        } finally {
            b.synchronizeAll();
            ends.forEach(b::destroyEvent);
            streams.forEach(b::destroyStream);
            b.destroyEvent(start);
        }
    }
}
