package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.Backend;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.VirtualTimeline;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.topology.BandwidthMatrix;

class EventGenerationsTest {
    /** A local event: which record it is, in creation order. */
    private record Local(int id) implements EventHandle {
        @Override
        public int device() {
            return 0;
        }
    }

    private final List<Local> created = new ArrayList<>();
    private final Set<Local> complete = new HashSet<>();
    private final List<Local> destroyed = new ArrayList<>();
    private final List<Local> waitedFor = new ArrayList<>();
    private final StreamHandle stream = new StreamHandle() {
        public int device() {
            return 0;
        }

        public int id() {
            return 0;
        }
    };
    private final Backend backend = (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(),
            new Class<?>[] {Backend.class}, (proxy, method, args) -> {
                synchronized (this) {
                    return switch (method.getName()) {
                        case "createEvent" -> {
                            Local e = new Local(created.size());
                            created.add(e);
                            yield e;
                        }
                        case "queryEvent" -> complete.contains((Local) args[0]);
                        case "destroyEvent" -> destroyed.add((Local) args[0]) ? null : null;
                        case "streamWaitEvent" -> waitedFor.add((Local) args[1]) ? null : null;
                        default -> null;
                    };
                }
            });

    /** A record again on another stream does not answer for the earlier one: each generation is its own event. */
    @Test
    void eachGenerationIsAnsweredByItsOwnRecord() {
        EventGenerations events = new EventGenerations(backend);
        events.create(7, 0);
        assertTrue(events.query(7, 0), "never recorded: complete");
        events.record(7, 1, stream);
        events.record(7, 2, stream);
        complete.add(created.get(1)); // the second record completed first
        assertFalse(events.query(7, 1));
        assertTrue(events.query(7, 2));
        events.streamWait(7, 1, stream);
        assertEquals(List.of(created.get(0)), waitedFor);
    }

    /** A wait for a generation whose record has not run yet waits for it, even when a later one ran first. */
    @Test
    void aWaitForAGenerationRecordedOutOfOrderWaitsForItsRecord() throws Exception {
        EventGenerations events = new EventGenerations(backend);
        events.create(7, 0);
        events.record(7, 2, stream);
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> events.streamWait(7, 1, stream));
        Thread.sleep(50);
        assertFalse(waiting.isDone());
        events.record(7, 1, stream);
        waiting.get(5, TimeUnit.SECONDS);
        assertEquals(List.of(created.get(1)), waitedFor);
    }

    /** A wait that comes before the event's creation (another rank's request) waits for it and its record. */
    @Test
    void aWaitBeforeTheEventExistsWaitsForItsCreationAndRecord() throws Exception {
        EventGenerations events = new EventGenerations(backend);
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> events.synchronize(9, 1));
        Thread.sleep(50);
        events.create(9, 0);
        Thread.sleep(50);
        assertFalse(waiting.isDone());
        events.record(9, 1, stream);
        waiting.get(5, TimeUnit.SECONDS);
    }

    /** Completed generations are released oldest first when a later one is recorded; the latest stays. */
    @Test
    void completedGenerationsAreReleasedAndCountAsComplete() {
        EventGenerations events = new EventGenerations(backend);
        events.create(7, 0);
        events.record(7, 1, stream);
        events.record(7, 2, stream);
        complete.addAll(created);
        events.record(7, 3, stream);
        assertEquals(List.of(created.get(0), created.get(1)), destroyed);
        assertTrue(events.query(7, 1));
        events.streamWait(7, 2, stream);
        assertEquals(List.of(), waitedFor, "a released generation needs no wait");
        events.destroy(7);
        assertEquals(created, destroyed);
    }

    /** On a virtual clock a synchronisation answers when the generation completed, released or not. */
    @Test
    void onAVirtualClockSynchronisingAnswersTheGenerationsCompletionTime() {
        try (LockedBackend local = new LockedBackend(EmulatedBackend.builder().topology(new BandwidthMatrix(
                new double[][] {{100, 10}, {10, 0}})).hostApiNanos(0).build())) {
            VirtualTimeline clock = local.virtualTimeline();
            EventGenerations events = new EventGenerations(local);
            StreamHandle s = local.createStream(0);
            events.create(1, 0);
            clock.holdUntil(s, 5_000);
            events.record(1, 1, s);
            assertEquals(5_000, events.synchronize(1, 1));
            clock.holdUntil(s, 9_000);
            events.record(1, 2, s); // releases generation 1, complete
            assertEquals(5_000, events.synchronize(1, 1));
            assertEquals(9_000, events.synchronize(1, 2));
            assertEquals(RankClock.NONE, events.synchronize(1, 0));
        }
    }
}
