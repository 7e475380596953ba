package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

/** A stream held until a virtual time ({@code holdUntil}) and the virtual completion time of an event. */
class ClockHoldTest {
    private static final LaunchConfig ONE = LaunchConfig.of(1, 1);
    /** The fixture's "store": the default launch latency, 4 us, then 10 us of memory traffic. */
    private static final long STORE_NANOS = 14_000;

    @Test
    void aHeldStreamStartsItsNextKernelAtTheHoldsTime() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            ModuleHandle m = b.loadModule(0, Fixtures.module());
            DeviceBuffer x = b.allocate(0, 4);
            StreamHandle s = b.createStream(0);
            b.holdUntil(s, 50_000);
            b.launch(b.function(m, "store"), ONE, new Object[] {x, 1}, s, new OperationLabel(1, "store"));
            b.synchronizeAll();
            List<TimedOperation> t = b.timeline();
            assertEquals(1, t.size());
            assertEquals(50_000, t.get(0).startNanos());
            assertEquals(50_000 + STORE_NANOS, b.makespanNanos()); // the kernel runs after the hold
        }
    }

    @Test
    void aHoldInThePastDelaysNothingAndAHoldWaitsForTheWorkBeforeIt() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            ModuleHandle m = b.loadModule(0, Fixtures.module());
            DeviceBuffer x = b.allocate(0, 4);
            StreamHandle s = b.createStream(0);
            b.launch(b.function(m, "store"), ONE, new Object[] {x, 1}, s, new OperationLabel(1, "first"));
            b.holdUntil(s, 5_000); // passed by the time the first kernel ends
            b.launch(b.function(m, "store"), ONE, new Object[] {x, 2}, s, new OperationLabel(2, "second"));
            b.synchronizeAll();
            assertEquals(STORE_NANOS, b.timeline().get(1).startNanos());
            assertEquals(2 * STORE_NANOS, b.makespanNanos());
        }
    }

    @Test
    void completedAtIsTheVirtualTimeOfTheRecordAndZeroWhenNeverRecorded() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            ModuleHandle m = b.loadModule(0, Fixtures.module());
            DeviceBuffer x = b.allocate(0, 4);
            StreamHandle s = b.createStream(0);
            EventHandle never = b.createEvent(0);
            EventHandle done = b.createEvent(0);
            b.holdUntil(s, 30_000);
            b.launch(b.function(m, "store"), ONE, new Object[] {x, 1}, s, OperationLabel.NONE);
            b.recordEvent(done, s);
            assertEquals(30_000 + STORE_NANOS, b.completedAt(done));
            assertEquals(0, b.completedAt(never));
            assertEquals(30_000 + STORE_NANOS, b.hostNanos()); // the host waited for the record, as synchronizeEvent does
        }
    }

    @Test
    void aHeldHostEnqueuesLaterWorkAtTheHoldsTimeAndAPastTimeHoldsNothing() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            ModuleHandle m = b.loadModule(0, Fixtures.module());
            DeviceBuffer x = b.allocate(0, 4);
            b.holdHostUntil(70_000);
            b.holdHostUntil(20_000);
            assertEquals(70_000, b.hostNanos());
            b.launch(b.function(m, "store"), ONE, new Object[] {x, 1}, b.createStream(0), OperationLabel.NONE);
            b.synchronizeAll();
            assertEquals(70_000, b.timeline().get(0).startNanos());
        }
    }
}
