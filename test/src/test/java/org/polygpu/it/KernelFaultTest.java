package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.BackendException;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.JavaKernelModule;
import org.polygpu.emulator.KernelCost;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;

/**
 * A kernel's fault is reported once, by the next host access or synchronisation once it is known (sticky, whatever
 * the access reads), and leaves the arrays it wrote undefined while unrelated arrays and later launches are unaffected.
 */
class KernelFaultTest {
    private static final int N = 100;
    private static final JavaKernelModule FAULTY = JavaKernelModule.builder()
            .kernel("overrun", k -> k.pointer(0).setAtIndex(Fixtures.F, k.intArg(1), 1f), KernelCost.fixed(1, 4))
            .build();

    private static Kernel overrun(ExecutionContext ctx) {
        return ctx.kernel("overrun", FAULTY, List.of(
                Parameter.pointer("x", ElementType.FLOAT, Access.READ_WRITE), Parameter.scalar("i", ElementType.INT)));
    }

    /** Sticky faults: the next host read raises the fault once, though it reads an array the kernel does not use. */
    @Test
    void theNextHostReadRaisesTheFaultOnceEvenOfAnUnrelatedArray() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend)) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray u = ctx.newArray(ElementType.FLOAT, N);
            ctx.launch(overrun(ctx), Fixtures.launch(), x, N + 5);
            ctx.launch(inc, Fixtures.launch(), u, N);
            ctx.launch(inc, Fixtures.launch(), u, N);
            BackendException fault = assertThrows(BackendException.class, () -> ctx.read(u, 0));
            assertTrue(fault.getMessage().contains("kernel 'overrun'"), fault.getMessage());
            assertEquals(2f, (Float) ctx.read(u, 0), "raised once: the context stays usable");
            ctx.write(u, 1, 5f);
            ctx.free(u);
            IllegalStateException again = assertThrows(IllegalStateException.class, () -> ctx.read(x, 3));
            assertTrue(again.getMessage().contains("is undefined: kernel 'overrun'"), again.getMessage());
            assertDoesNotThrow(ctx::synchronize, "the fault was reported once already");
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            ctx.launch(inc, Fixtures.launch(), y, N);
            assertEquals(1f, (Float) ctx.read(y, N - 1));
        }
    }

    @Test
    void writingAllOfAnUndefinedArrayDefinesItAgainAndFreeWorks() {
        try (EmulatedBackend backend = Fixtures.backend(1, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend)) {
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray z = ctx.newArray(ElementType.FLOAT, N);
            Kernel bad = overrun(ctx);
            ctx.launch(bad, Fixtures.launch(), x, -1);
            assertThrows(BackendException.class, () -> ctx.copyToHost(x, MemorySegment.ofArray(new float[N])));
            assertThrows(IllegalStateException.class, () -> ctx.write(x, 0, 1f), "a partial write is refused");
            ctx.copyFromHost(x, MemorySegment.ofArray(new float[N]));
            ctx.launch(Fixtures.inc(ctx), Fixtures.launch(), x, N);
            assertEquals(1f, (Float) ctx.read(x, 7));
            ctx.launch(bad, Fixtures.launch(), z, N);
            ctx.free(z);
            BackendException unreported = assertThrows(BackendException.class, ctx::synchronize,
                    "the fault of the freed array's kernel was never reported");
            assertTrue(unreported.getMessage().contains("overrun"), unreported.getMessage());
            assertDoesNotThrow(ctx::synchronize);
        }
    }

    @Test
    void aLaterKernelOrCopyThatOverwritesAllOfAnUndefinedArrayDefinesIt() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend)) {
            DeviceArray u = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray z = ctx.newArray(ElementType.FLOAT, N);
            ctx.launch(Fixtures.inc(ctx), Fixtures.launch(), u, N);
            Kernel bad = overrun(ctx);
            ctx.launch(bad, Fixtures.launch(), x, N);
            ctx.launch(bad, Fixtures.launch(), z, N);
            ctx.launch(Fixtures.scale(ctx), Fixtures.launch(), u, x, N, 3f);
            ctx.copy(u, z);
            ctx.poll();
            BackendException sticky = assertThrows(BackendException.class, () -> ctx.read(x, 5),
                    "the first host read raises the faults known by then, whatever it reads");
            assertTrue(sticky.getMessage().contains("overrun"), sticky.getMessage());
            assertEquals(1, sticky.getSuppressed().length, "both faults are reported, once");
            assertEquals(3f, (Float) ctx.read(x, 5), "scale's out parameter overwrote x");
            assertEquals(1f, (Float) ctx.read(z, 5), "the copy overwrote z");
            assertDoesNotThrow(ctx::synchronize);
        }
    }

    @Test
    void closeRaisesAFaultNothingReportedAfterReleasingEverything() {
        try (EmulatedBackend backend = Fixtures.backend(1, "test-2gpu")) {
            ExecutionContext ctx = Fixtures.context(backend);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            ctx.launch(overrun(ctx), Fixtures.launch(), x, N);
            BackendException e = assertThrows(BackendException.class, ctx::close);
            assertTrue(e.getMessage().contains("overrun"), e.getMessage());
            assertTrue(x.isFreed());
            assertDoesNotThrow(ctx::close);
        }
    }

    /**
     * A kernel or copy reading an array a fault left undefined is not refused but leaves what it writes undefined,
     * carrying the original fault, and the outcome is the same whether the fault had retired when it was launched.
     */
    @Test
    void workReadingAnUndefinedArrayLeavesWhatItWritesUndefinedWhetherOrNotTheFaultWasKnown() {
        for (boolean faultKnownFirst : new boolean[] {false, true}) {
            try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
                 ExecutionContext ctx = Fixtures.context(backend)) {
                DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
                DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
                DeviceArray z = ctx.newArray(ElementType.FLOAT, N);
                DeviceArray unrelated = ctx.newArray(ElementType.FLOAT, N);
                ctx.launch(overrun(ctx), Fixtures.launch(), x, N);
                if (faultKnownFirst) {
                    assertThrows(BackendException.class, () -> ctx.read(x, 0), "the fault itself, reported first");
                }
                ctx.launch(Fixtures.scale(ctx), Fixtures.launch(), x, y, N, 2f);
                ctx.copy(y, z);
                ctx.launch(Fixtures.inc(ctx), Fixtures.launch(), unrelated, N);
                if (!faultKnownFirst) {
                    BackendException fault = assertThrows(BackendException.class, () -> ctx.read(z, 0),
                            "z depends on the faulted kernel through scale and the copy");
                    assertTrue(fault.getMessage().contains("overrun"), fault.getMessage());
                }
                IllegalStateException derived = assertThrows(IllegalStateException.class, () -> ctx.read(y, 1));
                assertTrue(derived.getMessage().contains("is undefined: kernel 'scale' (computation " + (faultKnownFirst ? 2 : 1) + ") computed it from "
                        + x + ", which kernel 'overrun' (computation 0) left undefined when it faulted"),
                        derived.getMessage());
                IllegalStateException copied = assertThrows(IllegalStateException.class, () -> ctx.read(z, 1));
                assertTrue(copied.getMessage().contains("computed it from " + y), copied.getMessage());
                assertEquals(1f, (Float) ctx.read(unrelated, 0));
                assertDoesNotThrow(ctx::synchronize, "the fault was reported once");
                ctx.copyFromHost(x, MemorySegment.ofArray(new float[N]));
                ctx.launch(Fixtures.scale(ctx), Fixtures.launch(), x, y, N, 2f);
                assertEquals(0f, (Float) ctx.read(y, 1), "a kernel reading a defined x defines y again");
            }
        }
    }
}
