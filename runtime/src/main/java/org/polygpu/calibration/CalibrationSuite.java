package org.polygpu.calibration;

import java.lang.foreign.MemorySegment;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.topology.InterconnectProfiler;

/**
 * The microbenchmark suite of {@code polygpu calibrate}: measures one device of any {@link Backend} through the
 * backend SPI (kernels from {@code calibration.cu}, compiled by the backend; times from its events, medians of
 * several runs after warm-ups). The measurements, by benchmark (parameter; what {@code work} counts):
 * <ul>
 *   <li>{@code load}, {@code store} ({@code stride-1} .. {@code stride-32}, {@code scattered}; bytes asked for):
 *       a full grid streaming over {@code streamBytes}</li>
 *   <li>{@code load-one-block}, {@code store-one-block} ({@code stride-1}; bytes): one block, one SM, 16-byte
 *       accesses</li>
 *   <li>{@code load-l2} (buffer bytes; bytes): the whole device reading twice a buffer of its own that fits in L2</li>
 *   <li>{@code chase-dram}, {@code chase-l2} (buffer bytes; loads): one thread's dependent loads</li>
 *   <li>{@code fp32|fp64|int32|sfu-independent} ({@code full-grid}; warp instructions) and {@code -dependent}
 *       ({@code one-warp-per-sm}; instructions of one warp)</li>
 *   <li>{@code shared} ({@code stride-1} .. {@code stride-64}; warp accesses)</li>
 *   <li>{@code atomic} ({@code addresses-1} .. one per thread; atomics)</li>
 *   <li>{@code launch-device}, {@code launch-host} ({@code empty}; launches): per launch</li>
 *   <li>{@code copy-h2d|d2h-pinned|pageable}, {@code copy-d2d} (bytes; bytes): one copy</li>
 *   <li>{@code streams}, {@code streams-compute} (1, 2, 4, 8; kernels): the makespan of that many 64-block
 *       kernels, memory-bound or compute-bound, each on its own stream</li>
 * </ul>
 * Kernel times are per launch as a stream of launches sees them, launch cost included, the host's cost of a launch
 * call not (an untimed launch goes first). Not thread-safe; the backend must not be used by others meanwhile.
 */
public final class CalibrationSuite {
    private final Backend backend;
    private final int device;
    private final CalibrationSettings settings;

    public CalibrationSuite(Backend backend, int device, CalibrationSettings settings) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.settings = Objects.requireNonNull(settings, "settings");
        if (device < 0 || device >= backend.deviceCount()) {
            throw new IllegalArgumentException("device " + device + " does not exist; the " + backend.name()
                    + " backend has " + backend.deviceCount());
        }
        this.device = device;
    }

    /** The CUDA source of the suite's kernels ({@code calibration.cu}). */
    public static String kernelSource() {
        return CalibrationKernels.source();
    }

    /** Steps of the progress bar: compiling the kernels, then each of {@link #steps}. */
    static final int STEPS = 12;
    /**
     * The untimed copy before each timed kernel run: 4 MiB, tens of microseconds on any host link, more than the
     * host needs to enqueue the timed launches.
     */
    static final long BUSY_COPY_BYTES = 4L << 20;

    /** One step of the suite, for the progress bar. */
    private record Step(String name, Consumer<List<Measurement>> run) {
    }

    /** Runs every benchmark; {@code progress} hears of each step. */
    public Measurements run(InterconnectProfiler.Progress progress) {
        return run(progress, x -> { });
    }

    /**
     * Runs every benchmark; {@code progress} hears of each step, {@code measured} of each measurement as soon as it
     * is taken (a kernel measurement right after its last timed launch, before any other launch: what lets an
     * emulator read that launch's profile).
     */
    public Measurements run(InterconnectProfiler.Progress progress, Consumer<Measurement> measured) {
        Objects.requireNonNull(measured, "measured");
        List<Measurement> rows = new ArrayList<>() {
            @Override
            public boolean add(Measurement x) {
                super.add(x);
                measured.accept(x);
                return true;
            }
        };
        DeviceBuffer buffer = null;
        DeviceBuffer l2 = null;
        DeviceBuffer out = null;
        DeviceBuffer source = null;
        DeviceBuffer destination = null;
        MemorySegment pinned = null;
        try (Bench bench = new Bench(backend, device, settings)) {
            progress.update(0, STEPS, "compiling the kernels");
            CalibrationKernels kernels = new CalibrationKernels(backend, device);
            buffer = backend.allocate(device, settings.streamBytes());
            l2 = backend.allocate(device, settings.l2Bytes());
            // Where kernels would store results (they never do), the atomics' counters and the chase's state.
            out = backend.allocate(device, 4L * Math.max(1024, MemoryBenchmarks.fullGrid(backend.deviceProperties(
                    device).multiprocessors())));
            source = backend.allocate(device, settings.maxCopyBytes());
            destination = backend.allocate(device, settings.maxCopyBytes());
            pinned = backend.allocateHost(settings.maxCopyBytes());
            bench.keepBusyWith(pinned, destination, Math.min(settings.maxCopyBytes(), BUSY_COPY_BYTES));
            List<Step> steps = steps(bench, kernels, buffer, l2, out, source, destination, pinned);
            for (int i = 0; i < steps.size(); i++) {
                progress.update(i + 1, STEPS, steps.get(i).name());
                steps.get(i).run().accept(rows);
            }
            progress.update(STEPS, STEPS, "done");
        } finally {
            backend.synchronizeAll();
            for (DeviceBuffer b : new DeviceBuffer[] {buffer, l2, out, source, destination}) {
                if (b != null) {
                    backend.free(b);
                }
            }
            if (pinned != null) {
                backend.freeHost(pinned);
            }
        }
        return new Measurements(backend.deviceProperties(device), backend.name(),
                LocalDate.now(ZoneOffset.UTC).toString(), rows);
    }

    private List<Step> steps(Bench bench, CalibrationKernels kernels, DeviceBuffer buffer, DeviceBuffer l2,
                             DeviceBuffer out, DeviceBuffer source, DeviceBuffer destination, MemorySegment pinned) {
        MemoryBenchmarks memory = new MemoryBenchmarks(bench, kernels, buffer, l2, out);
        ComputeBenchmarks compute = new ComputeBenchmarks(bench, kernels, out);
        LaunchBenchmarks launches = new LaunchBenchmarks(bench, kernels);
        List<Step> steps = List.of(
                new Step("streaming loads", rows -> memory.streams("load", rows)),
                new Step("streaming stores", rows -> memory.streams("store", rows)),
                new Step("one block", memory::oneBlock),
                new Step("L2", memory::l2),
                new Step("pointer chases", memory::chases),
                new Step("instruction chains", compute::chains),
                new Step("shared memory", compute::shared),
                new Step("atomics", rows -> compute.atomics(out, rows)),
                new Step("launches", rows -> launches.launches(destination, pinned, rows)),
                new Step("streams", rows -> new StreamBenchmarks(bench, kernels).streams(buffer, out, destination,
                        pinned, rows)),
                new Step("copies", rows -> new CopyBenchmarks(bench).copies(source, destination, pinned, rows)));
        assert steps.size() + 1 == STEPS;
        return steps;
    }
}
