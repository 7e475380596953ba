package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.MemoryModel;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.sched.UserStream;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * {@code MemoryModel=managed} through the scheduler on the emulator: no replica copies, each computation's arrays that
 * are not valid on its device prefetched there (moving only the pages that are elsewhere), host accesses migrating the
 * pages they touch.
 */
class ManagedMemoryModelTest {
    private static final int N = 100_000;
    private static final long BYTES = 4L * N;
    private static final long PAGE = 64 << 10;

    private static EmulatedBackend managed() {
        return EmulatedBackend.builder().devices(2).topology(BandwidthMatrixLoader.preset("v100x8"))
                .model(DeviceModel.V100).memoryModel(MemoryModel.MANAGED).build();
    }

    /** The prefetch or migration of {@code array} for computation {@code id}. */
    private static TimedOperation migration(List<TimedOperation> timeline, long id, DeviceArray array) {
        return timeline.stream().filter(op -> op.label().computationId() == id
                && op.kind() != TimedOperation.Kind.KERNEL && op.label().name().contains(array.toString()))
                .findFirst().orElseThrow();
    }

    @Test
    void aKernelOnDeviceOneAfterAWriteOnDeviceZeroPaysAMigrationAndASecondKernelDoesNot() {
        try (EmulatedBackend backend = managed();
             ExecutionContext ctx = Fixtures.context(backend);
             Arena arena = Arena.ofConfined()) {
            Kernel inc = Fixtures.inc(ctx);
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray z = ctx.newArray(ElementType.FLOAT, N);
            MemorySegment values = arena.allocate(BYTES);
            for (int i = 0; i < N; i++) {
                values.setAtIndex(Fixtures.F, i, i);
            }
            ctx.copyFromHost(x, values);
            ctx.streams().setCurrentDevice(0);
            UserStream onZero = ctx.streams().createStream();
            ctx.streams().setCurrentDevice(1);
            UserStream onOne = ctx.streams().createStream();
            Computation written = ctx.launch(inc, Fixtures.launch(), onZero, x, N);
            Computation first = ctx.launch(scale, Fixtures.launch(), onOne, x, y, N, 2f);
            Computation second = ctx.launch(scale, Fixtures.launch(), onOne, x, z, N, 3f);
            assertEquals(List.of(0, 1, 1), List.of(written.device(), first.device(), second.device()));
            assertEquals(3f * 8, ctx.read(z, 7), "one memory: device 1 reads what device 0 wrote");
            List<TimedOperation> timeline = ctx.timeline();

            TimedOperation toZero = migration(timeline, written.id(), x);
            assertEquals(BYTES, toZero.bytes(), "x's pages come from the host, where the copy left them");
            assertEquals(-1, toZero.source());
            TimedOperation toOne = migration(timeline, first.id(), x);
            assertEquals(BYTES, toOne.bytes(), "device 0 wrote x: its pages move to device 1");
            assertEquals(0, toOne.source());
            assertTrue(toOne.endNanos() - toOne.startNanos() > BYTES / 100, "moved over the link, not for free");
            assertTrue(timeline.stream().noneMatch(op -> op.label().computationId() == second.id()
                    && op.label().name().contains(x.toString())), "x is valid on device 1 already: no prefetch");
            assertEquals(0, migration(timeline, first.id(), y).bytes(), "y was never touched: nothing to move");
            // The element read brought the page holding z[7] to the host, and nothing else.
            assertEquals(PAGE, timeline.get(timeline.size() - 1).bytes());
            assertTrue(timeline.stream().allMatch(op -> op.kind() == TimedOperation.Kind.KERNEL
                    || op.label().name().startsWith("prefetch") || op.label().name().startsWith("migrate")),
                    "no replica copies: " + timeline);
            assertEquals(0, backend.managedMigrations().faultedPages(), "everything was prefetched");
        }
    }

    /**
     * A kernel that writes an array it declares read-only: the write lands, but the scheduler still thinks the other
     * devices' copies valid, prefetches nothing, and the next kernel there faults the pages in.
     */
    @Test
    void aWriteThroughAReadOnlyParameterLandsAndTheNextKernelElsewhereFaultsItsPages() {
        try (EmulatedBackend backend = managed(); ExecutionContext ctx = Fixtures.context(backend)) {
            Kernel incDeclaredIn = ctx.kernel("inc", Fixtures.MODULE, List.of(
                    Parameter.pointer("x", ElementType.FLOAT, Access.READ), Parameter.scalar("n", ElementType.INT)));
            Kernel scale = Fixtures.scale(ctx);
            ctx.streams().setCurrentDevice(0);
            UserStream onZero = ctx.streams().createStream();
            ctx.streams().setCurrentDevice(1);
            UserStream onOne = ctx.streams().createStream();
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            ctx.write(x, 5, 1f);
            ctx.launch(scale, Fixtures.launch(), onOne, x, y, N, 1f);
            // Readers of one array on two devices at once would move its pages back and forth: one after the other.
            ctx.synchronize();
            ctx.launch(incDeclaredIn, Fixtures.launch(), onZero, x, N);
            ctx.synchronize();
            assertEquals(0, backend.managedMigrations().faultedPages());
            ctx.launch(scale, Fixtures.launch(), onOne, x, y, N, 10f);
            assertEquals(20f, ctx.read(y, 5), "device 1 sees the increment device 0 made through an in pointer");
            long pages = (BYTES + PAGE - 1) / PAGE;
            assertEquals(pages, backend.managedMigrations().faultedPages(), "x's pages fault from device 0");
        }
    }

    @Test
    void freeingAnArrayReleasesItsOneAllocation() {
        try (EmulatedBackend backend = managed(); ExecutionContext ctx = Fixtures.context(backend)) {
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            ctx.write(x, 3, 1.5f);
            ctx.launch(Fixtures.inc(ctx), Fixtures.launch(), x, N);
            assertEquals(2.5f, ctx.read(x, 3));
            ctx.free(x);
            assertTrue(x.isFreed());
            assertEquals(null, x.managedBuffer());
        }
    }
}
