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
 * Launch costs and the sharing of the device between streams: empty kernels back to back (the device's interval
 * between launches, behind a copy that keeps the device busy while the host enqueues them), the host's time per
 * enqueue call, and one streaming kernel of 64 blocks on 1, 2, 4 and 8 streams at once.
 */
final class LaunchBenchmarks {
    /** The stream counts of the concurrency benchmark. */
    static final List<Integer> STREAMS = List.of(1, 2, 4, 8);
    /** Blocks of the concurrent kernel: fewer than the SMs of a large GPU, as a partitioned program launches. */
    static final int CONCURRENT_BLOCKS = 64;

    private final Bench bench;
    private final CalibrationKernels kernels;

    LaunchBenchmarks(Bench bench, CalibrationKernels kernels) {
        this.bench = bench;
        this.kernels = kernels;
    }

    /**
     * {@code launch-device} (nanoseconds per launch in a batch the device runs back to back) and {@code launch-host}
     * (the host's nanoseconds per launch call, on {@link Backend#hostNanos()}).
     */
    void launches(DeviceBuffer blocker, MemorySegment pinned, List<Measurement> rows) {
        Backend b = bench.backend;
        FunctionHandle empty = kernels.function("empty");
        LaunchConfig one = LaunchConfig.of(1, 32);
        int n = bench.settings.launches();
        Runnable batch = () -> {
            for (int i = 0; i < n; i++) {
                b.launch(empty, one, new Object[0], bench.stream, Bench.LABEL);
            }
        };
        Runnable busy = () -> b.copyHostToDevice(pinned, blocker, blocker.bytes(), bench.stream, Bench.LABEL);
        double[] device = new double[bench.settings.repeats()];
        double[] host = new double[device.length];
        batch.run();
        b.synchronizeAll();
        for (int r = 0; r < device.length; r++) {
            device[r] = bench.time(busy, batch) / n;
            long start = b.hostNanos();
            batch.run();
            host[r] = (double) (b.hostNanos() - start) / n;
            b.synchronizeAll();
        }
        rows.add(new Measurement("launch-device", "empty", "launches", n, Bench.median(device)));
        rows.add(new Measurement("launch-host", "empty", "launches", n, Math.max(1, Bench.median(host))));
    }

    /**
     * {@code streams}: the time from a common start until the last of {@code k} copies of one kernel, each on its
     * own stream reading its own slice of {@code buffer}, completes (kernels: {@code k}). A copy to {@code blocker}
     * before the start keeps the device busy while the host enqueues the kernels.
     */
    void streams(DeviceBuffer buffer, DeviceBuffer out, DeviceBuffer blocker, MemorySegment pinned,
                 List<Measurement> rows) {
        Backend b = bench.backend;
        int most = STREAMS.getLast();
        long slice = buffer.bytes() / most;
        long threads = (long) CONCURRENT_BLOCKS * MemoryBenchmarks.BLOCK;
        int iterations = (int) Math.max(1, slice / 4 / threads);
        FunctionHandle load = kernels.function("load_stride");
        List<StreamHandle> streams = new ArrayList<>();
        List<EventHandle> ends = new ArrayList<>();
        EventHandle start = b.createEvent(bench.device);
        try {
            for (int s = 0; s < most; s++) {
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
                        b.launch(load, LaunchConfig.of(CONCURRENT_BLOCKS, MemoryBenchmarks.BLOCK), new Object[] {
                                new BufferOffset(buffer, s * slice), out, threads, 1, iterations, 0L},
                                streams.get(s), Bench.LABEL);
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
                rows.add(new Measurement("streams", Integer.toString(k), "kernels", k, Bench.median(nanos)));
            }
        } finally {
            b.synchronizeAll();
            ends.forEach(b::destroyEvent);
            streams.forEach(b::destroyStream);
            b.destroyEvent(start);
        }
    }
}
