package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.READ_WRITE;
import static org.polygpu.array.Access.WRITE;
import static org.polygpu.sched.NoWorkContexts.NOTHING_FINISHES;
import static org.polygpu.sched.NoWorkContexts.array;
import static org.polygpu.sched.NoWorkContexts.launch;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.testing.NoWorkBackend;

/**
 * Completion events shared by a stream's computations (a backend's {@code computationsPerCompletionEvent} above 1,
 * as on CUDA): a computation's own event is recorded only when something may wait for exactly it, and waits and
 * retirement use the event that covers it.
 */
class SharedCompletionEventsTest {
    /** A chain on one stream records one event per 16 launches; a synchronize retires the rest. */
    @Test
    void aChainOnOneStreamRecordsOneEventPerSixteenLaunches() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES).sharingCompletionEvents(16);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            DeviceArray x = array(ctx);
            List<Computation> chain = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                chain.add(launch(ctx, step, x));
            }
            assertEquals(4, backend.recordCount());
            assertEquals(0, backend.waitCount());
            assertFalse(chain.get(0).isFinished());
            ctx.synchronize();
            assertTrue(chain.stream().allMatch(Computation::isFinished));
            assertEquals(0, ctx.dag().vertexCount());
        }
    }

    /**
     * A writer followed on its stream by a reader of its output (which does not take its place for later readers)
     * has its own event recorded first, so a second reader on another stream waits for the writer alone.
     */
    @Test
    void aForkWaitsForTheParentsOwnEventNotForItsSibling() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES).sharingCompletionEvents(16);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel fill = NoWorkContexts.kernel(ctx, "fill", WRITE);
            Kernel use = NoWorkContexts.kernel(ctx, "use", READ, WRITE);
            DeviceArray x = array(ctx);
            Computation parent = launch(ctx, fill, x);
            Computation first = launch(ctx, use, x, array(ctx));
            Computation second = launch(ctx, use, x, array(ctx));
            assertSame(parent.slot(), first.slot());
            assertNotSame(parent.slot(), second.slot());
            assertTrue(parent.eventRecorded());
            assertSame(parent.event(), backend.lastWaited());
            assertEquals(1, backend.waitCount());
        }
    }

    /**
     * A host read waits for the array's last writer: its event, recorded then after its stream's work, covers the
     * computation before it too, whose own event was never recorded.
     */
    @Test
    void aHostWaitForAnUnrecordedComputationWaitsForTheEventCoveringIt() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES).sharingCompletionEvents(16);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            DeviceArray x = array(ctx);
            Computation a = launch(ctx, step, x);
            Computation b = launch(ctx, step, x);
            assertFalse(a.eventRecorded());
            assertFalse(b.eventRecorded());
            ctx.read(x, 0);
            assertTrue(b.isFinished());
            assertTrue(a.isFinished());
            assertFalse(a.eventRecorded());
            assertEquals(0, ctx.dag().vertexCount());
        }
    }
}
