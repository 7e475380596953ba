package org.polygpu.cuda;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
 * the host; when the operation before it on the same stream ended there (nothing else was enqueued on the stream
 * since, {@link #moved}), that operation's end event is the start and no event is recorded, so back-to-back work
 * costs one {@code cuEventRecord} per operation. An event takes its time when the GPU reaches it: on a stream that
 * was idle, the interval therefore still includes the host's own {@code cuLaunchKernel} or copy call after the start
 * was recorded (a few microseconds); on a busy stream it is the operation's own time. Timing events resolve about
 * half a microsecond.
 *
 * <p>Events come from a per-device free list and return to it once their operation is read (a shared end event once
 * the operation that started with it is read); pending operations are read whenever more than
 * {@value #HARVEST_THRESHOLD} accumulate, bounding memory on long runs. The start event of an operation that failed to
 * enqueue (a {@link #begin} with no {@link #end}) goes back to the free list at the next {@code begin} or at
 * {@link #close()}, so failures do not leak events. Every call needs the operation's device context current, except
 * {@link #timeline()} and {@link #close()}, which make each device's context current themselves. Not thread-safe.
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
    /** Per stream (by handle address): the operation enqueued last, when its end event is the stream's last point. */
    private final Map<Long, Pending> lastEnded = new HashMap<>();
    /** The start event of the operation begun last, until its {@link #end}; null when none is open. */
    private MemorySegment open;
    private int openDevice;
    /** The operation whose end event {@link #open} is, or null when the start was recorded for it. */
    private Pending openAfter;
    private boolean enabled;

    /** An enqueued operation whose events have not been read yet. */
    private static final class Pending {
        final int device;
        final int stream;
        final TimedOperation.Kind kind;
        final OperationLabel label;
        final long bytes;
        final int source;
        final MemorySegment start;
        final MemorySegment end;
        final long streamAddress;
        /** Whether the next operation on the stream started with {@link #end}: that operation frees it. */
        boolean endShared;

        Pending(int device, int stream, TimedOperation.Kind kind, OperationLabel label, long bytes, int source,
                MemorySegment start, MemorySegment end, long streamAddress) {
            this.device = device;
            this.stream = stream;
            this.kind = kind;
            this.label = label;
            this.bytes = bytes;
            this.source = source;
            this.start = start;
            this.end = end;
            this.streamAddress = streamAddress;
        }
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
        lastEnded.clear();
    }

    /** Other work was enqueued on {@code stream}: its last end event no longer starts the next timed operation. */
    void moved(MemorySegment stream) {
        if (!lastEnded.isEmpty()) {
            lastEnded.remove(stream.address());
        }
    }

    /** Records the start event of an operation on {@code stream} of {@code device}, or returns null when off. */
    MemorySegment begin(int device, MemorySegment stream) {
        if (!enabled) {
            return null;
        }
        reclaimOpen();
        Pending before = lastEnded.remove(stream.address());
        openDevice = device;
        openAfter = before;
        if (before != null) {
            open = before.end;
            return open;
        }
        open = take(device);
        driver.recordEvent(open, stream);
        return open;
    }

    /**
     * Returns the start event of an operation that began but never ended to the free list, unless it is the end event
     * of the operation before it, which still owns it.
     */
    private void reclaimOpen() {
        if (open != null && openAfter == null) {
            freeEvents.get(openDevice).push(open);
        }
        open = null;
        openAfter = null;
    }

    /** Records the end event of an operation begun with {@code start} (nothing when {@code start} is null). */
    void end(MemorySegment start, int device, int streamId, MemorySegment stream, TimedOperation.Kind kind,
             OperationLabel label, long bytes, int source) {
        if (start == null) {
            return;
        }
        if (openAfter != null) {
            openAfter.endShared = true;
        }
        open = null;
        openAfter = null;
        MemorySegment end = take(device);
        driver.recordEvent(end, stream);
        Pending p = new Pending(device, streamId, kind, label, bytes, source, start, end, stream.address());
        pending.add(p);
        lastEnded.put(stream.address(), p);
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
            devices.current(p.device);
            if (!driver.queryEvent(p.end)) {
                continue;
            }
            long start = epochNanos[p.device] + nanos(driver.elapsedMillis(epochs[p.device], p.start));
            long end = start + nanos(driver.elapsedMillis(p.start, p.end));
            completed.add(new TimedOperation(p.device, p.stream, p.kind, p.label, start, end, p.bytes, p.source));
            release(p);
            it.remove();
        }
    }

    /**
     * Returns a read operation's events to the free list: its start (the operation before it shared its end event
     * as this start, so this one frees it) and its end unless the next operation started with it and frees it then.
     */
    private void release(Pending p) {
        if (lastEnded.get(p.streamAddress) == p) {
            lastEnded.remove(p.streamAddress);
        }
        freeEvents.get(p.device).push(p.start);
        if (!p.endShared) {
            freeEvents.get(p.device).push(p.end);
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
        lastEnded.clear();
        for (Pending p : pending) {
            release(p);
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
