package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.READ_WRITE;
import static org.polygpu.array.Access.WRITE;
import static org.polygpu.sched.NoWorkContexts.ELEMENTS;
import static org.polygpu.sched.NoWorkContexts.array;
import static org.polygpu.sched.NoWorkContexts.launch;
import static org.polygpu.sched.NoWorkContexts.valid;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.testing.NoWorkBackend;

/**
 * Coherence transitions applied when work is scheduled (ARCHITECTURE.md): which locations hold a valid copy after
 * writers, readers, copies and host accesses, and which copies that took. On 2 devices whose work finishes at once,
 * so each launch has no live parent and {@link RotatingPolicy} sends launches to devices 0, 1, 0, ...
 */
class ScheduleTimeCoherenceTest {
    /** Each step as "valid locations of x | of y | copies so far". */
    @Test
    void writersInvalidateOtherCopiesAndReadersAddTheirLocation() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            Kernel map = NoWorkContexts.kernel(ctx, "map", READ, WRITE);
            DeviceArray x = array(ctx);
            DeviceArray y = array(ctx);
            List<String> steps = new ArrayList<>();
            ctx.write(x, 0, 1f);
            steps.add(valid(ctx, x) + " | " + valid(ctx, y) + " | " + backend.copyCount());
            launch(ctx, step, x);
            steps.add(valid(ctx, x) + " | " + valid(ctx, y) + " | " + backend.copyCount());
            launch(ctx, map, x, y);
            steps.add(valid(ctx, x) + " | " + valid(ctx, y) + " | " + backend.copyCount());
            ctx.read(x, 0);
            steps.add(valid(ctx, x) + " | " + valid(ctx, y) + " | " + backend.copyCount());
            ctx.write(x, 0, 2f);
            steps.add(valid(ctx, x) + " | " + valid(ctx, y) + " | " + backend.copyCount());
            ctx.read(y, 0);
            steps.add(valid(ctx, x) + " | " + valid(ctx, y) + " | " + backend.copyCount());
            assertEquals(List.of(
                    "host | host | 0",      // host write: the host holds the only copy
                    "0 | host | 1",         // writer on 0: copied in from the host, then 0 alone is valid
                    "0 1 | 1 | 2",          // reader on 1: x copied from 0 and shared; y, never written, needs no copy
                    "0 1 host | 1 | 3",     // host read: copied back, the host joins the valid set
                    "host | 1 | 3",         // host write: device copies are invalid, nothing is copied
                    "host | 1 host | 4"), steps);
        }
    }

    /** An array never written anywhere is zeros everywhere: a replica becomes valid without a copy. */
    @Test
    void aPristineArrayBecomesValidOnADeviceWithoutACopy() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel map = NoWorkContexts.kernel(ctx, "map", READ, WRITE);
            DeviceArray x = array(ctx);
            DeviceArray y = array(ctx);
            launch(ctx, map, x, y);
            assertEquals(List.of("0 host", "0", 0L), List.of(valid(ctx, x), valid(ctx, y), backend.copyCount()));
        }
    }

    /** A whole-array host write needs none of the old contents; a partial one first fetches them. */
    @Test
    void aWholeHostWriteFetchesNothingButAPartialOneFetchesTheRest() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            DeviceArray x = array(ctx);
            MemorySegment whole = MemorySegment.ofArray(new float[ELEMENTS]);
            MemorySegment part = MemorySegment.ofArray(new float[4]);
            List<String> steps = new ArrayList<>();
            launch(ctx, step, x);
            steps.add(valid(ctx, x) + " | " + backend.copyCount());
            ctx.copyFromHost(x, whole);
            steps.add(valid(ctx, x) + " | " + backend.copyCount());
            launch(ctx, step, x);
            steps.add(valid(ctx, x) + " | " + backend.copyCount());
            ctx.copyFromHost(x, 8, part);
            steps.add(valid(ctx, x) + " | " + backend.copyCount());
            assertEquals(List.of("0 | 0", "host | 0", "1 | 1", "host | 2"), steps);
        }
    }

    /**
     * A device copy runs where the policy says; its source and, as for any written array, the destination's old
     * contents are copied there first (3 copies with the copy itself); then only that device holds the destination.
     */
    @Test
    void aDeviceCopyLeavesTheDestinationValidOnlyWhereItRan() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            DeviceArray src = array(ctx);
            DeviceArray dst = array(ctx);
            ctx.write(dst, 0, 5f);
            launch(ctx, step, src);
            Computation copy = ctx.copy(src, dst);
            assertEquals(List.of(1, "0 1", "1", 3L),
                    List.of(copy.device(), valid(ctx, src), valid(ctx, dst), backend.copyCount()));
        }
    }

    /** InputPrefetch asks the backend to prefetch every array of every kernel to its device; off, nothing is asked. */
    @Test
    void inputPrefetchAsksForEachArrayOfEachLaunch() {
        for (boolean on : new boolean[] {false, true}) {
            try (NoWorkBackend backend = new NoWorkBackend(2);
                 ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config().withInputPrefetch(on))) {
                Kernel map = NoWorkContexts.kernel(ctx, "map", READ, WRITE);
                DeviceArray x = array(ctx);
                DeviceArray y = array(ctx);
                launch(ctx, map, x, y);
                launch(ctx, map, y, x);
                ctx.read(x, 0);
                assertEquals(on ? 4 : 0, backend.prefetchCount(), "InputPrefetch=" + on);
            }
        }
    }
}
