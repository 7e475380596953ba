package org.polygpu.calibration;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/**
 * Times work on one stream of one device with the backend's events: warm-up runs, then timed runs each between two
 * events, and the median. Owns its stream and events until {@link #close()}. Not thread-safe.
 */
final class Bench implements AutoCloseable {
    static final OperationLabel LABEL = new OperationLabel(-1, "calibrate");

    final Backend backend;
    final int device;
    final CalibrationSettings settings;
    final StreamHandle stream;
    private final EventHandle start;
    private final EventHandle end;
    private Runnable busy;

    Bench(Backend backend, int device, CalibrationSettings settings) {
        this.backend = backend;
        this.device = device;
        this.settings = settings;
        this.stream = backend.createStream(device);
        this.start = backend.createEvent(device);
        this.end = backend.createEvent(device);
    }

    /**
     * Keeps the device busy before each timed kernel run with a copy of {@code bytes} from {@code pinned} into
     * {@code blocker} (untimed), long enough that the host has enqueued the timed launches before the device reaches
     * them, whatever a launch call costs the host.
     */
    void keepBusyWith(MemorySegment pinned, DeviceBuffer blocker, long bytes) {
        busy = () -> backend.copyHostToDevice(pinned, blocker, bytes, stream, LABEL);
    }

    /**
     * Median nanoseconds of one launch of {@code function}, from runs of {@link CalibrationSettings#batch()}. The
     * untimed copy of {@link #keepBusyWith} goes first, so that the device is busy while the host enqueues the timed
     * launches: the time is the device's, without the host's cost of a launch call.
     *
     * @throws IllegalStateException before {@link #keepBusyWith}
     */
    double kernel(FunctionHandle function, LaunchConfig config, Object... arguments) {
        if (busy == null) {
            throw new IllegalStateException("kernels are timed behind a copy: call keepBusyWith first");
        }
        int batch = settings.batch();
        Runnable one = () -> backend.launch(function, config, arguments, stream, LABEL);
        return median(busy, () -> {
            for (int i = 0; i < batch; i++) {
                one.run();
            }
        }) / batch;
    }

    /** Median nanoseconds of {@code work}, enqueued on {@link #stream} by each run. */
    double median(Runnable work) {
        return median(() -> { }, work);
    }

    /** Median nanoseconds of {@code work}, enqueued on {@link #stream} by each run after {@code before} (untimed). */
    private double median(Runnable before, Runnable work) {
        for (int i = 0; i < settings.warmups(); i++) {
            work.run();
        }
        backend.synchronizeAll();
        double[] nanos = new double[settings.repeats()];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = time(before, work);
        }
        return median(nanos);
    }

    /**
     * Nanoseconds of {@code work} alone: {@code before} is enqueued first and not timed (a long copy that keeps the
     * device busy while the host enqueues the timed work, so that the host's enqueue rate does not limit it).
     */
    double time(Runnable before, Runnable work) {
        before.run();
        backend.recordEvent(start, stream);
        work.run();
        backend.recordEvent(end, stream);
        backend.synchronizeEvent(end);
        return backend.elapsedMillis(start, end) * 1e6;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    @Override
    public void close() {
        backend.synchronizeAll();
        backend.destroyEvent(end);
        backend.destroyEvent(start);
        backend.destroyStream(stream);
    }
}
