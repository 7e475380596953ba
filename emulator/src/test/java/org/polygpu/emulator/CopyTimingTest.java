package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

/** Copy durations: {@code bytes / bandwidth + 2 000 ns} with the matrix entry of the directed link, shared fluidly. */
class CopyTimingTest {
    private static final long MB = 1_000_000;
    private static final long LATENCY = 2_000;

    @Test
    void hostToDeviceTakesBytesOverBandwidthPlusLatency() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            b.copyHostToDevice(b.allocateHost(MB), b.allocate(0, MB), MB, b.createStream(0), label("x"));
            b.synchronizeAll();
            TimedOperation op = b.timeline().getFirst();
            assertEquals(TimedOperation.Kind.COPY_HOST_TO_DEVICE, op.kind());
            assertEquals(0, op.startNanos());
            assertEquals(MB / 10 + LATENCY, op.endNanos()); // host -> GPU 0 at 10 GB/s
            assertEquals(-1, op.source());
            assertEquals(MB, op.bytes());
            assertEquals(MB / 10 + LATENCY, b.makespanNanos());
            assertEquals(MB / 10 + LATENCY, b.hostNanos());
        }
    }

    @Test
    void eachDirectionUsesItsOwnMatrixEntry() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            assertEquals(MB / 8 + LATENCY, alone(b, s -> b.copyDeviceToHost(b.allocate(0, MB), b.allocateHost(MB),
                    MB, s, label("d2h")), 0));
            assertEquals(MB / 20 + LATENCY, alone(b, s -> b.copyHostToDevice(b.allocateHost(MB), b.allocate(1, MB),
                    MB, s, label("h2d")), 1));
            assertEquals(MB / 50 + LATENCY, alone(b, s -> b.copyDeviceToDevice(b.allocate(0, MB), b.allocate(1, MB),
                    MB, s, label("peer")), 1));
            assertEquals(MB / 200 + LATENCY, alone(b, s -> b.copyDeviceToDevice(b.allocate(1, MB),
                    b.allocate(1, MB), MB, s, label("local")), 1));
        }
    }

    @Test
    void twoConcurrentCopiesOnOneLinkShareItsBandwidth() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            b.copyHostToDevice(b.allocateHost(MB), b.allocate(0, MB), MB, b.createStream(0), label("a"));
            b.copyHostToDevice(b.allocateHost(MB), b.allocate(0, MB), MB, b.createStream(0), label("b"));
            b.synchronizeAll();
            for (TimedOperation op : b.timeline()) {
                assertEquals(0, op.startNanos());
                assertEquals(2 * MB / 10 + LATENCY, op.endNanos(), op.label().name());
            }
        }
    }

    @Test
    void aShortCopyLeavesTheWholeLinkToTheLongOneWhenItEnds() {
        // Both at 5 GB/s until the short one is done after 100 us; the long one then has 0.5 MB left at 10 GB/s.
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            b.copyHostToDevice(b.allocateHost(MB), b.allocate(0, MB), MB, b.createStream(0), label("long"));
            b.copyHostToDevice(b.allocateHost(MB), b.allocate(0, MB), MB / 2, b.createStream(0), label("short"));
            b.synchronizeAll();
            List<TimedOperation> t = b.timeline();
            assertEquals("short", t.get(0).label().name());
            assertEquals(LATENCY + 100_000, t.get(0).endNanos());
            assertEquals("long", t.get(1).label().name());
            assertEquals(LATENCY + 150_000, t.get(1).endNanos());
        }
    }

    @Test
    void aCopyJoiningMidwaySharesOnlyTheRestOfTheTransfer() {
        // The first copy moves 0.5 MB alone before the second joins 50 us later; they then share 10 GB/s.
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).hostApiNanos(50_000).build()) {
            b.recordTimeline(true);
            b.copyHostToDevice(b.allocateHost(MB), b.allocate(0, MB), MB, b.createStream(0), label("first"));
            b.copyHostToDevice(b.allocateHost(MB), b.allocate(0, MB), MB, b.createStream(0), label("second"));
            b.synchronizeAll();
            List<TimedOperation> t = b.timeline();
            assertEquals(List.of(0L, 50_000L), t.stream().map(TimedOperation::startNanos).toList());
            assertEquals(LATENCY + 50_000 + 100_000, t.get(0).endNanos());
            assertEquals(LATENCY + 50_000 + 100_000 + 50_000, t.get(1).endNanos());
        }
    }

    @Test
    void copiesOnDifferentLinksDoNotSlowEachOther() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            b.copyHostToDevice(b.allocateHost(MB), b.allocate(0, MB), MB, b.createStream(0), label("h2d0"));
            b.copyDeviceToHost(b.allocate(0, MB), b.allocateHost(MB), MB, b.createStream(0), label("d2h0"));
            b.copyHostToDevice(b.allocateHost(MB), b.allocate(1, MB), MB, b.createStream(1), label("h2d1"));
            b.copyDeviceToDevice(b.allocate(0, MB), b.allocate(1, MB), MB, b.createStream(1), label("peer"));
            b.synchronizeAll();
            assertEquals(List.of("peer", "h2d1", "h2d0", "d2h0"),
                    b.timeline().stream().map(op -> op.label().name()).toList());
            assertEquals(List.of(MB / 50 + LATENCY, MB / 20 + LATENCY, MB / 10 + LATENCY, MB / 8 + LATENCY),
                    b.timeline().stream().map(TimedOperation::endNanos).toList());
        }
    }

    @Test
    void copiesOnOneStreamRunOneAfterTheOther() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            StreamHandle s = b.createStream(0);
            DeviceBuffer d = b.allocate(0, MB);
            b.copyHostToDevice(b.allocateHost(MB), d, MB, s, label("a"));
            b.copyHostToDevice(b.allocateHost(MB), d, MB, s, label("b"));
            b.synchronizeAll();
            assertEquals(2 * (MB / 10 + LATENCY), b.makespanNanos());
        }
    }

    private static long alone(EmulatedBackend b, java.util.function.Consumer<StreamHandle> copy, int device) {
        b.synchronizeAll();
        b.recordTimeline(true);
        int before = b.timeline().size();
        copy.accept(b.createStream(device));
        b.synchronizeAll();
        TimedOperation op = b.timeline().get(before);
        return op.endNanos() - op.startNanos();
    }

    private static OperationLabel label(String name) {
        return new OperationLabel(-1, name);
    }
}
