package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.polygpu.array.Access.WRITE;
import static org.polygpu.sched.NoWorkContexts.NOTHING_FINISHES;
import static org.polygpu.sched.NoWorkContexts.array;
import static org.polygpu.sched.NoWorkContexts.launch;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.testing.NoWorkBackend;

/** A host write to a module variable waits for the kernel's pending launches, then writes on every device. */
class SymbolWritesTest {
    @Test
    void aWriteWaitsForTheKernelsPendingLaunchesOnlyAndWritesEveryDevice() {
        try (NoWorkBackend backend = new NoWorkBackend(3, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel mine = NoWorkContexts.kernel(ctx, "mine", WRITE);
            Kernel other = NoWorkContexts.kernel(ctx, "other", WRITE);
            Computation a = launch(ctx, mine, array(ctx));
            Computation b = launch(ctx, mine, array(ctx));
            Computation c = launch(ctx, other, array(ctx));
            mine.writeSymbol("coef", 0, MemorySegment.ofArray(new float[] {1f}));
            assertTrue(a.isFinished() && b.isFinished(), "the kernel's launches finished first");
            assertFalse(c.isFinished(), "another kernel's launch is not waited for");
            assertEquals(3, backend.symbolWriteCount(), "one write per device");
        }
    }

    @Test
    void aNegativeOffsetIsRefusedBeforeWaiting() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel mine = NoWorkContexts.kernel(ctx, "mine", WRITE);
            Computation a = launch(ctx, mine, array(ctx));
            assertThrows(IllegalArgumentException.class,
                    () -> mine.writeSymbol("coef", -4, MemorySegment.ofArray(new float[] {1f})));
            assertFalse(a.isFinished());
            assertEquals(0, backend.symbolWriteCount());
        }
    }
}
