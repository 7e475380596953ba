package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

class EventOrderingTest {
    private static final OperationLabel L = OperationLabel.NONE;
    private static final LaunchConfig ONE = LaunchConfig.of(1, 1);

    @Test
    void streamWaitEventMakesTheConsumerSeeTheProducersData() {
        assertEquals(42, producerConsumer(true));
    }

    @Test
    void missingWaitLetsTheConsumerReadStaleData() {
        // The 10 us producer completes after the instant consumer on another stream: the race is visible.
        assertEquals(0, producerConsumer(false));
    }

    private static int producerConsumer(boolean wait) {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            ModuleHandle m = b.loadModule(0, Fixtures.module());
            DeviceBuffer shared = b.allocate(0, 4);
            DeviceBuffer result = b.allocate(0, 4);
            StreamHandle producer = b.createStream(0);
            StreamHandle consumer = b.createStream(0);
            EventHandle produced = b.createEvent(0);
            b.launch(b.function(m, "store"), ONE, new Object[] {shared, 42}, producer, L);
            b.recordEvent(produced, producer);
            if (wait) {
                b.streamWaitEvent(consumer, produced);
            }
            b.launch(b.function(m, "move"), ONE, new Object[] {shared, result}, consumer, L);
            MemorySegment host = b.allocateHost(4);
            b.copyDeviceToHost(result, host, 4, consumer, L);
            b.synchronizeAll();
            return host.get(JAVA_INT, 0);
        }
    }

    @Test
    void waitCapturesThePointRecordedAtTheTimeOfTheWait() {
        // Re-recording after the wait does not make the waiting stream wait for the later work (CUDA semantics).
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            FunctionHandle store = b.function(b.loadModule(0, Fixtures.module()), "store");
            StreamHandle a = b.createStream(0);
            StreamHandle c = b.createStream(0);
            EventHandle e = b.createEvent(0);
            b.launch(store, ONE, new Object[] {b.allocate(0, 4), 1}, a, new OperationLabel(1, "first"));
            b.recordEvent(e, a);
            b.streamWaitEvent(c, e);
            b.launch(store, ONE, new Object[] {b.allocate(0, 4), 2}, a, new OperationLabel(2, "second"));
            b.recordEvent(e, a);
            b.launch(store, ONE, new Object[] {b.allocate(0, 4), 3}, c, new OperationLabel(3, "waiter"));
            b.synchronizeAll();
            var byName = b.timeline().stream()
                    .collect(java.util.stream.Collectors.toMap(op -> op.label().name(), op -> op));
            assertEquals(14_000, byName.get("waiter").startNanos());
            assertEquals(14_000, byName.get("second").startNanos());
        }
    }

    @Test
    void queryBecomesTrueAfterEnoughPollingWithoutSynchronising() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            FunctionHandle store = b.function(b.loadModule(0, Fixtures.module()), "store");
            StreamHandle s = b.createStream(0);
            EventHandle done = b.createEvent(0);
            b.launch(store, ONE, new Object[] {b.allocate(0, 4), 1}, s, L);
            b.recordEvent(done, s);
            int polls = 0;
            while (!b.queryEvent(done)) {
                polls++;
            }
            assertEquals(140, polls); // 14 000 ns of kernel at 100 ns per poll
            assertEquals(14_100, b.hostNanos());
        }
    }

    @Test
    void eventNeverRecordedCountsAsComplete() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            EventHandle e = b.createEvent(1);
            assertTrue(b.queryEvent(e));
            b.synchronizeEvent(e);
            BackendException elapsed = assertThrows(BackendException.class, () -> b.elapsedMillis(e, e));
            assertTrue(elapsed.getMessage().contains("never recorded"), elapsed.getMessage());
        }
    }

    @Test
    void elapsedMillisMeasuresVirtualTimeBetweenEvents() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            FunctionHandle store = b.function(b.loadModule(0, Fixtures.module()), "store");
            StreamHandle s = b.createStream(0);
            EventHandle start = b.createEvent(0);
            EventHandle end = b.createEvent(0);
            b.recordEvent(start, s);
            b.launch(store, ONE, new Object[] {b.allocate(0, 4), 1}, s, L);
            b.launch(store, ONE, new Object[] {b.allocate(0, 4), 1}, s, L);
            b.recordEvent(end, s);
            assertFalse(b.queryEvent(end));
            assertThrows(BackendException.class, () -> b.elapsedMillis(start, end));
            b.synchronizeEvent(end);
            assertEquals(28_000, b.hostNanos());
            assertEquals(0.028, b.elapsedMillis(start, end), 1e-12);
        }
    }

    @Test
    void recordingOnAnotherDevicesStreamIsRefused() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            BackendException e = assertThrows(BackendException.class,
                    () -> b.recordEvent(b.createEvent(0), b.createStream(1)));
            assertTrue(e.getMessage().contains("event of device 0 on stream 0 of device 1"), e.getMessage());
        }
    }

    @Test
    void destroyedStreamRefusesWork() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            StreamHandle s = b.createStream(0);
            b.destroyStream(s);
            BackendException e = assertThrows(BackendException.class, () -> b.recordEvent(b.createEvent(0), s));
            assertEquals("stream 0 of device 0 was destroyed", e.getMessage());
        }
    }

    @Test
    void backPressureBoundsPendingOperationsAndBlocksTheHost() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).maxPendingPerStream(4)
                .build()) {
            FunctionHandle store = b.function(b.loadModule(0, Fixtures.module()), "store");
            EmulatedStream s = (EmulatedStream) b.createStream(0);
            DeviceBuffer buf = b.allocate(0, 4);
            int maxPending = 0;
            for (int i = 0; i < 100; i++) {
                b.launch(store, ONE, new Object[] {buf, i}, s, L);
                maxPending = Math.max(maxPending, s.pendingCount());
            }
            assertEquals(4, maxPending);
            // The last launch waited for the 96th kernel to end, at 96 x 14 us, then cost the host 1.5 us.
            assertEquals(96 * 14_000 + 1_500, b.hostNanos());
            b.synchronizeAll();
            assertEquals(100 * 14_000, b.makespanNanos());
        }
    }
}
