package org.polygpu.sched;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.polygpu.backend.Backend;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.RetrieveNewStreamPolicy;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The streams and events of every device, and which streams have unfinished work.
 *
 * <p>Completion is found by polling: {@link #poll} queries the oldest recorded completion event of a few busy
 * streams (stream order means nothing behind it can have finished first) and hands the computations up to it to the
 * retire callback ({@link Schedule#retire}). Where the backend lets several computations share one event
 * ({@link Backend#computationsPerCompletionEvent}), a computation's own event is recorded only when something may
 * wait for exactly it ({@link #beforeEnqueue}, a timed launch); the others are covered by the next event recorded on
 * their stream, which polling records once that many are uncovered, and a wait for them uses that event
 * ({@link #completionOf}). Events are pooled per device and reused once their computation retired. Not thread-safe.
 */
final class StreamPool {
    private final Backend backend;
    private final RetrieveNewStreamPolicy policy;
    private final Consumer<Computation> retire;
    private final List<List<StreamSlot>> streams = new ArrayList<>();
    private final List<ArrayDeque<EventHandle>> freeEvents = new ArrayList<>();
    private final int[] busyStreams;
    private final StreamHandle[] hostStreams;
    private final ArrayList<StreamSlot> busy = new ArrayList<>();
    /** How many computations in a row may share one completion event on a stream (at least 1). */
    private final int shared;
    private int pollCursor;

    /** @param retire called with each computation found finished, oldest first on each stream */
    StreamPool(Backend backend, int deviceCount, RetrieveNewStreamPolicy policy, Consumer<Computation> retire) {
        this.backend = backend;
        this.policy = policy;
        this.retire = retire;
        this.shared = Math.max(1, backend.computationsPerCompletionEvent());
        this.busyStreams = new int[deviceCount];
        this.hostStreams = new StreamHandle[deviceCount];
        for (int d = 0; d < deviceCount; d++) {
            streams.add(new ArrayList<>());
            freeEvents.add(new ArrayDeque<>());
        }
    }

    /** A stream on {@code device} for work without a parent stream, per {@code RetrieveNewStreamPolicy}. */
    StreamSlot newStream(int device) {
        if (policy == RetrieveNewStreamPolicy.REUSE) {
            StreamSlot free = firstFree(device);
            if (free == null) {
                pollDevice(device);
                free = firstFree(device);
            }
            if (free != null) {
                return free;
            }
        }
        StreamSlot s = new StreamSlot(backend.createStream(device), false);
        streams.get(device).add(s);
        return s;
    }

    private StreamSlot firstFree(int device) {
        for (StreamSlot s : streams.get(device)) {
            if (s.isFree()) {
                return s;
            }
        }
        return null;
    }

    /**
     * The stream of {@code device} used for synchronous host transfers; the host waits for its work at once, so it
     * never holds unfinished computations.
     */
    StreamHandle hostStream(int device) {
        StreamHandle s = hostStreams[device];
        if (s == null) {
            s = backend.createStream(device);
            hostStreams[device] = s;
        }
        return s;
    }

    /** Whether every computation's completion event is recorded after it (the backend shares none). */
    boolean recordsEveryEvent() {
        return shared == 1;
    }

    /**
     * Before anything of {@code next} is enqueued on {@code slot}: records the completion event of the stream's last
     * computation when its event is not recorded and {@code next} does not take its place for later dependencies
     * ({@link Computation#supersededBy}), so that a wait for it never waits for {@code next} too.
     */
    void beforeEnqueue(StreamSlot slot, Computation next) {
        Computation last = slot.active.peekLast();
        if (last != null && !last.eventRecorded() && !last.supersededBy(next)) {
            record(last);
        }
    }

    /** Records {@code c}'s completion event on its stream now; it must be the last computation enqueued there. */
    void record(Computation c) {
        backend.recordEvent(c.event(), c.slot().handle);
        c.markEventRecorded();
        c.slot().unrecorded = 0;
    }

    /**
     * The computation whose recorded completion event completes no earlier than {@code c}'s work: {@code c} itself,
     * else the first one after it on its stream with a recorded event, else the stream's last computation, whose event
     * is recorded now. {@code c} is enqueued and unfinished.
     */
    Computation completionOf(Computation c) {
        if (c.eventRecorded()) {
            return c;
        }
        boolean after = false;
        for (Computation x : c.slot().active) {
            after |= x == c;
            if (after && x.eventRecorded()) {
                return x;
            }
        }
        Computation last = c.slot().active.peekLast();
        record(last);
        return last;
    }

    /** Whether {@code c}'s work has completed, by the event that covers it; never blocks. */
    boolean query(Computation c) {
        return backend.queryEvent(completionOf(c).event());
    }

    /** Records that {@code c} was enqueued on {@code slot}. */
    void enqueued(StreamSlot slot, Computation c) {
        if (slot.active.isEmpty()) {
            busyStreams[slot.device()]++;
            busy.add(slot);
        }
        slot.active.addLast(c);
        if (!c.eventRecorded()) {
            slot.unrecorded++;
        }
    }

    /** The computations enqueued on every stream and not yet seen to finish, oldest first per stream (a copy). */
    List<Computation> unfinished() {
        List<Computation> all = new ArrayList<>();
        for (StreamSlot s : busy) {
            all.addAll(s.active);
        }
        return all;
    }

    /** Busy streams per device, as a new array. */
    int[] busyStreamsSnapshot() {
        return busyStreams.clone();
    }

    /** Whether {@code device} is crowded ({@link SelectionRequest#crowdedDevices}), in constant time. */
    boolean isCrowded(int device) {
        return SelectionRequest.isCrowded(busyStreams[device], busyStreams.length, busy.size());
    }

    int streamCount(int device) {
        return streams.get(device).size();
    }

    EventHandle takeEvent(int device) {
        EventHandle e = freeEvents.get(device).pollFirst();
        return e != null ? e : backend.createEvent(device);
    }

    void releaseEvent(EventHandle e) {
        freeEvents.get(e.device()).addLast(e);
    }

    /** Polls up to {@code maxStreams} busy streams, in rotation, retiring what finished. */
    void poll(int maxStreams) {
        for (int i = 0; i < maxStreams && !busy.isEmpty(); i++) {
            if (pollCursor >= busy.size()) {
                pollCursor = 0;
            }
            StreamSlot s = busy.get(pollCursor);
            drain(s, false);
            if (s.isFree()) {
                removeBusy(pollCursor);
            } else {
                pollCursor++;
            }
        }
    }

    /** Polls every busy stream of one device. */
    void pollDevice(int device) {
        for (int i = busy.size() - 1; i >= 0; i--) {
            StreamSlot s = busy.get(i);
            if (s.device() == device) {
                drain(s, true);
                if (s.isFree()) {
                    removeBusy(i);
                }
            }
        }
    }

    /** Polls every busy stream. */
    void pollAll() {
        for (int i = busy.size() - 1; i >= 0; i--) {
            StreamSlot s = busy.get(i);
            drain(s, true);
            if (s.isFree()) {
                removeBusy(i);
            }
        }
    }

    /** Blocks the host until {@code c} completed, and retires it with the work before it on its stream. */
    void await(Computation c) {
        Computation cover = completionOf(c);
        backend.synchronizeEvent(cover.event());
        finishedThrough(cover.slot(), cover);
    }

    /** Marks every computation on {@code slot} up to and including {@code last} finished (after a host wait). */
    private void finishedThrough(StreamSlot slot, Computation last) {
        if (!slot.active.contains(last)) {
            return;
        }
        Computation c;
        do {
            c = slot.active.pollFirst();
            retire.accept(c);
        } while (c != last);
        if (slot.isFree()) {
            int i = busy.indexOf(slot);
            if (i >= 0) {
                removeBusy(i);
            }
        }
    }

    /**
     * Retires the computations of {@code s} up to each recorded event seen complete, oldest first. Then records an
     * event after the stream's last computation when {@link #shared} of them are uncovered, or when {@code force}
     * (a caller waits for streams to free up) and it checks that event at once.
     */
    private void drain(StreamSlot s, boolean force) {
        retireCompleted(s);
        if (s.unrecorded > 0 && (force || s.unrecorded >= shared)) {
            record(s.active.peekLast());
            if (force) {
                retireCompleted(s);
            }
        }
    }

    private void retireCompleted(StreamSlot s) {
        Computation cover = firstRecorded(s);
        while (cover != null && backend.queryEvent(cover.event())) {
            Computation c;
            do {
                c = s.active.pollFirst();
                retire.accept(c);
            } while (c != cover);
            cover = firstRecorded(s);
        }
    }

    private static Computation firstRecorded(StreamSlot s) {
        for (Computation c : s.active) {
            if (c.eventRecorded()) {
                return c;
            }
        }
        return null;
    }

    private void removeBusy(int i) {
        StreamSlot s = busy.get(i);
        busyStreams[s.device()]--;
        int last = busy.size() - 1;
        busy.set(i, busy.get(last));
        busy.remove(last);
    }

    /** Destroys every stream and pooled event. */
    void close() {
        for (ArrayDeque<EventHandle> events : freeEvents) {
            for (EventHandle e : events) {
                backend.destroyEvent(e);
            }
            events.clear();
        }
        for (List<StreamSlot> device : streams) {
            for (StreamSlot s : device) {
                backend.destroyStream(s.handle);
            }
            device.clear();
        }
        for (StreamHandle s : hostStreams) {
            if (s != null) {
                backend.destroyStream(s);
            }
        }
    }
}
