package org.polygpu.calibration;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;

/**
 * Launch costs: empty kernels back to back (the device's interval between launches, behind a copy that keeps the
 * device busy while the host enqueues them) and the host's time per enqueue call.
 */
final class LaunchBenchmarks {
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
}
