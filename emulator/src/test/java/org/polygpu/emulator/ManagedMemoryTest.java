package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.MemoryModel;

/**
 * Managed memory on the emulator: one allocation every device and the host address, page residency, prefetches timed
 * on the link model for the pages that are elsewhere, and page faults for kernels (Java kernels touch all of each
 * managed argument).
 */
class ManagedMemoryTest {
    /** 16 pages of 64 KiB. */
    private static final long MIB = 1L << 20;
    private static final long FAULT = 20_000;
    private static final long LATENCY = 4_000;

    private static EmulatedBackend managed() {
        EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).hostApiNanos(0)
                .memoryModel(MemoryModel.MANAGED).pageFaultNanos(FAULT).build();
        b.recordTimeline(true);
        return b;
    }

    private static TimedOperation last(EmulatedBackend b) {
        List<TimedOperation> t = b.timeline();
        return t.get(t.size() - 1);
    }

    private static long duration(TimedOperation op) {
        return op.endNanos() - op.startNanos();
    }

    @Test
    void onlyABackendBuiltManagedHasManagedMemory() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            assertEquals(false, b.managedMemory());
            BackendException e = assertThrows(BackendException.class, () -> b.allocateManaged(64));
            assertTrue(e.getMessage().contains("MemoryModel=managed"), e.getMessage());
            assertThrows(BackendException.class, () -> b.hostView(b.allocate(0, 64)));
        }
    }

    @Test
    void kernelsOnEveryDeviceAndTheHostSeeOneMemory() {
        try (EmulatedBackend b = managed()) {
            DeviceBuffer m = b.allocateManaged(8);
            assertEquals(DeviceBuffer.MANAGED, m.device());
            for (int d = 0; d < 2; d++) {
                FunctionHandle store = b.function(b.loadModule(d, Fixtures.module()), "store");
                b.launch(store, LaunchConfig.of(1, 1), new Object[] {m, 10 + d}, b.createStream(d),
                        OperationLabel.NONE);
                b.synchronizeAll();
                assertEquals(10 + d, b.hostView(m).getAtIndex(JAVA_INT, 0), "written on device " + d);
            }
            b.hostView(m).setAtIndex(JAVA_INT, 0, 7);
            FunctionHandle move = b.function(b.loadModule(1, Fixtures.module()), "move");
            b.launch(move, LaunchConfig.of(1, 1), new Object[] {m, b.allocate(1, 4)}, b.createStream(1),
                    OperationLabel.NONE);
            b.synchronizeAll();
            assertEquals(7, b.hostView(m).getAtIndex(JAVA_INT, 0));
        }
    }

    @Test
    void aPrefetchMovesThePagesThatAreElsewhereOnTheirLinkAndNothingTheSecondTime() {
        try (EmulatedBackend b = managed()) {
            DeviceBuffer m = b.allocateManaged(MIB);
            StreamHandle s0 = b.createStream(0);
            StreamHandle s1 = b.createStream(1);
            // First touch populates the pages on device 0 without a transfer.
            b.prefetch(m, 0, MIB, 0, s0, new OperationLabel(1, "prefetch to 0"));
            b.synchronizeAll();
            assertEquals(0, last(b).bytes());
            assertEquals(0, duration(last(b)));
            b.prefetch(m, 0, MIB, 1, s1, new OperationLabel(2, "prefetch to 1"));
            b.synchronizeAll();
            TimedOperation moved = last(b);
            assertEquals(MIB, moved.bytes());
            assertEquals(TimedOperation.Kind.COPY_DEVICE_TO_DEVICE, moved.kind());
            assertEquals(0, moved.source());
            // 2 µs copy latency, then 1 MiB over the 50 GB/s link from device 0 to device 1.
            assertEquals(2_000 + VirtualTime.ceilNanos(MIB / 50.0), duration(moved));
            b.prefetch(m, 0, MIB, 1, s1, new OperationLabel(3, "prefetch to 1 again"));
            b.synchronizeAll();
            assertEquals(0, last(b).bytes());
            assertEquals(new ManagedMigrations(3, MIB, 0, 0), b.managedMigrations());
        }
    }

    @Test
    void aMigrationToTheHostMovesOnlyThePagesOfItsRange() {
        try (EmulatedBackend b = managed()) {
            DeviceBuffer m = b.allocateManaged(MIB);
            b.prefetch(m, 0, MIB, 1, b.createStream(1), OperationLabel.NONE);
            // Bytes 70 000..70 004 lie in page 1 (65 536..131 071).
            b.prefetch(m, 70_000, 4, -1, b.createStream(0), OperationLabel.NONE);
            b.synchronizeAll();
            TimedOperation toHost = last(b);
            assertEquals(TimedOperation.Kind.COPY_DEVICE_TO_HOST, toHost.kind());
            assertEquals(1, toHost.source());
            assertEquals(PageResidency.PAGE_BYTES, toHost.bytes());
            assertEquals(2_000 + VirtualTime.ceilNanos(PageResidency.PAGE_BYTES / 16.0), duration(toHost));
        }
    }

    @Test
    void pagesFromSeveralSourcesMoveOneSourceAfterAnother() {
        try (EmulatedBackend b = managed()) {
            long half = MIB / 2;
            DeviceBuffer m = b.allocateManaged(MIB);
            b.prefetch(m, 0, half, 0, b.createStream(0), OperationLabel.NONE);
            b.prefetch(m, half, half, -1, b.createStream(0), OperationLabel.NONE);
            b.prefetch(m, 0, MIB, 1, b.createStream(1), OperationLabel.NONE);
            b.synchronizeAll();
            TimedOperation moved = last(b);
            assertEquals(MIB, moved.bytes());
            // Device 0's half at 50 GB/s, then the host's at 20 GB/s, each after the copy latency.
            assertEquals(2_000 + VirtualTime.ceilNanos(half / 50.0) + 2_000 + VirtualTime.ceilNanos(half / 20.0),
                    duration(moved));
        }
    }

    @Test
    void aKernelOnDeviceOneAfterAWriteOnDeviceZeroPaysItsFaultsAndASecondKernelDoesNot() {
        try (EmulatedBackend b = managed()) {
            DeviceBuffer m = b.allocateManaged(MIB);
            FunctionHandle move0 = b.function(b.loadModule(0, Fixtures.module()), "move");
            FunctionHandle move1 = b.function(b.loadModule(1, Fixtures.module()), "move");
            DeviceBuffer out1 = b.allocate(1, 4);
            b.launch(move0, LaunchConfig.of(1, 1), new Object[] {m, b.allocate(0, 4)}, b.createStream(0),
                    OperationLabel.NONE);
            b.synchronizeAll();
            assertEquals(LATENCY, duration(last(b)), "first touch: populated on device 0 for free");
            StreamHandle s1 = b.createStream(1);
            b.launch(move1, LaunchConfig.of(1, 1), new Object[] {m, out1}, s1, OperationLabel.NONE);
            b.synchronizeAll();
            assertEquals(LATENCY + 16 * FAULT + VirtualTime.ceilNanos(MIB / 50.0), duration(last(b)),
                    "16 pages fault from device 0 over its 50 GB/s link");
            b.launch(move1, LaunchConfig.of(1, 1), new Object[] {m, out1}, s1, OperationLabel.NONE);
            b.synchronizeAll();
            assertEquals(LATENCY, duration(last(b)), "the pages are on device 1 now");
            assertEquals(new ManagedMigrations(0, 0, 16, MIB), b.managedMigrations());
        }
    }

    @Test
    void theSameProgramGivesTheSameTimelineEveryRun() {
        List<TimedOperation> first = pingPong();
        assertEquals(first, pingPong());
    }

    private static List<TimedOperation> pingPong() {
        try (EmulatedBackend b = managed()) {
            DeviceBuffer m = b.allocateManaged(3 * MIB + 100);
            StreamHandle[] s = {b.createStream(0), b.createStream(1)};
            FunctionHandle[] move = {b.function(b.loadModule(0, Fixtures.module()), "move"),
                    b.function(b.loadModule(1, Fixtures.module()), "move")};
            for (int i = 0; i < 6; i++) {
                int d = i % 2;
                b.prefetch(m, 0, 2 * MIB, d, s[d], new OperationLabel(i, "prefetch"));
                b.launch(move[d], LaunchConfig.of(1, 1), new Object[] {m, b.allocate(d, 4)}, s[d],
                        new OperationLabel(i, "move"));
            }
            b.synchronizeAll();
            return b.timeline();
        }
    }
}
