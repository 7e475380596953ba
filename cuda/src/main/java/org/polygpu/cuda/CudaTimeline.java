package org.polygpu.cuda;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;

/**
 * The CUDA backend's timeline: while recording, every copy and launch is bracketed by two timing events on its
 * stream, and completed operations are turned into {@link TimedOperation}s with real GPU timestamps.
 *
 * <p>Clock. When recording starts, an epoch event is recorded and waited for on each device, and the host's
 * {@code System.nanoTime()} read at that moment (minus the backend's start) is taken as the epoch's time. An
 * operation starts at {@code epoch + elapsed(epoch, start)} and lasts {@code elapsed(start, end)}, so durations are
 * exact to the events' half-microsecond resolution and devices are aligned to within the epoch wait's skew.
 *
 * <p>Resolution. The start event is recorded immediately before the copy or launch, with nothing between them on
 * the host. An event takes its time when the GPU reaches it: on a stream that was idle, the interval therefore still
 * includes the host's own {@code cuLaunchKernel} or copy call after the start was recorded (a few microseconds); on a
 * busy stream it is the operation's own time. The end event of the operation before is not reused as the start: on
 * an idle stream that would add all the host's time between the two operations. Timing events resolve about half a
 * microsecond.
 *
 * <p>Events come from a per-device free list and return to it once their operation is read; pending operations are
 * read whenever more than {@value #HARVEST_THRESHOLD} accumulate, bounding memory on long runs. The start event of an
 * operation that failed to enqueue (a {@link #begin} with no {@link #end}) goes back to the free list at the next
 * {@code begin} or at {@link #close()}, so failures do not leak events. Every call needs the
 * operation's device context current, except {@link #timeline()} and {@link #close()}, which make each device's
 * context current themselves. Not thread-safe.
 */
final class CudaTimeline {
    private static final int HARVEST_THRESHOLD = 4096;

    private final CudaDriver driver;
    private final CudaDevices devices;
    private final long openNanos;
    private final MemorySegment[] epochs;
    private final long[] epochNanos;
    private final List<ArrayDeque<MemorySegment>> freeEvents = new ArrayList<>();
    private final List<Pending> pending = new ArrayList<>();
    private final List<TimedOperation> completed = new ArrayList<>();
    /** The start event of the operation begun last, until its {@link #end}; null when none is open. */
    private MemorySegment open;
    private int openDevice;
    private boolean enabled;

    /** An enqueued operation whose events have not been read yet. */
    private record Pending(int device, int stream, TimedOperation.Kind kind, OperationLabel label, long bytes,
                           int source, MemorySegment start, MemorySegment end) {
    }

    /** @param devices the backend's devices; only their count is read before they are set up */
    CudaTimeline(CudaDriver driver, CudaDevices devices, long openNanos) {
        this.driver = driver;
        this.devices = devices;
        this.openNanos = openNanos;
        this.epochs = new MemorySegment[devices.count()];
        this.epochNanos = new long[devices.count()];
        for (int d = 0; d < devices.count(); d++) {
            freeEvents.add(new ArrayDeque<>());
        }
    }

    boolean enabled() {
        return enabled;
    }

    /** Starts or stops recording; starting records a fresh epoch on every device. */
    void enable(boolean on) {
        if (on && !enabled) {
            for (int d = 0; d < devices.count(); d++) {
                devices.current(d);
                if (epochs[d] == null) {
                    epochs[d] = driver.createEvent(CudaDriver.EVENT_DEFAULT);
                }
                driver.recordEvent(epochs[d], devices.internalStream(d));
                driver.synchronizeEvent(epochs[d]);
                epochNanos[d] = System.nanoTime() - openNanos;
            }
        }
        enabled = on;
    }

    /** Records the start event of an operation on {@code stream} of {@code device}, or returns null when off. */
    MemorySegment begin(int device, MemorySegment stream) {
        if (!enabled) {
            return null;
        }
        reclaimOpen();
        MemorySegment start = take(device);
        open = start;
        openDevice = device;
        driver.recordEvent(start, stream);
        return start;
    }

    /** Returns the start event of an operation that began but never ended to the free list. */
    private void reclaimOpen() {
        if (open != null) {
            freeEvents.get(openDevice).push(open);
            open = null;
        }
    }

    /** Records the end event of an operation begun with {@code start} (nothing when {@code start} is null). */
    void end(MemorySegment start, int device, int streamId, MemorySegment stream, TimedOperation.Kind kind,
             OperationLabel label, long bytes, int source) {
        if (start == null) {
            return;
        }
        open = null;
        MemorySegment end = take(device);
        driver.recordEvent(end, stream);
        pending.add(new Pending(device, streamId, kind, label, bytes, source, start, end));
        if (pending.size() > HARVEST_THRESHOLD) {
            harvest();
        }
    }

    /** Every operation completed so far while recording, in completion order. */
    List<TimedOperation> timeline() {
        harvest();
        completed.sort(Comparator.comparingLong(TimedOperation::endNanos));
        return List.copyOf(completed);
    }

    private void harvest() {
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            devices.current(p.device());
            if (!driver.queryEvent(p.end())) {
                continue;
            }
            long start = epochNanos[p.device()] + nanos(driver.elapsedMillis(epochs[p.device()], p.start()));
            long end = start + nanos(driver.elapsedMillis(p.start(), p.end()));
            completed.add(new TimedOperation(p.device(), p.stream(), p.kind(), p.label(), start, end, p.bytes(),
                    p.source()));
            freeEvents.get(p.device()).push(p.start());
            freeEvents.get(p.device()).push(p.end());
            it.remove();
        }
    }

    private MemorySegment take(int device) {
        MemorySegment e = freeEvents.get(device).poll();
        return e != null ? e : driver.createEvent(CudaDriver.EVENT_DEFAULT);
    }

    private static long nanos(float millis) {
        return Math.round(millis * 1e6);
    }

    /** Destroys every event; the backend has synchronised all work. */
    void close() {
        reclaimOpen();
        for (Pending p : pending) {
            freeEvents.get(p.device()).push(p.start());
            freeEvents.get(p.device()).push(p.end());
        }
        pending.clear();
        for (int d = 0; d < devices.count(); d++) {
            devices.current(d);
            for (MemorySegment e : freeEvents.get(d)) {
                driver.destroyEvent(e);
            }
            freeEvents.get(d).clear();
            if (epochs[d] != null) {
                driver.destroyEvent(epochs[d]);
                epochs[d] = null;
            }
        }
    }
}
