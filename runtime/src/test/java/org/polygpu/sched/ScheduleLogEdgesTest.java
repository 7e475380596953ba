package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.WRITE;
import static org.polygpu.sched.NoWorkContexts.NOTHING_FINISHES;
import static org.polygpu.sched.NoWorkContexts.array;
import static org.polygpu.sched.NoWorkContexts.launch;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.export.ScheduleLog;

/** The schedule log keeps every edge the scheduler honoured, also those into host accesses that waited for them. */
class ScheduleLogEdgesTest {
    private static List<String> edges(ExecutionContext ctx) {
        return ctx.scheduleLog().edges().stream().map(e -> e.from() + "->" + e.to() + " " + e.arrays()).toList();
    }

    /** A kernel writes x, the host reads x then overwrites it, and a kernel reads it again. */
    @Test
    void edgesIntoHostReadsAndWritesAreLogged() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     NoWorkContexts.config().withRecording(true, false))) {
            Kernel produce = NoWorkContexts.kernel(ctx, "produce", WRITE);
            Kernel consume = NoWorkContexts.kernel(ctx, "consume", READ, WRITE);
            DeviceArray x = array(ctx);
            Computation k0 = launch(ctx, produce, x);
            ctx.read(x, 0);
            ctx.write(x, 1, 2f);
            Computation k3 = launch(ctx, consume, x, array(ctx));
            ctx.write(x, 2, 3f);
            List<ScheduleLog.Node> nodes = ctx.scheduleLog().nodes();
            assertEquals(List.of("produce", "read " + x + "[0]", "write " + x + "[1]", "consume",
                    "write " + x + "[2]"), nodes.stream().map(ScheduleLog.Node::name).toList());
            // The host's accesses finish before the next computation joins the DAG: no edge leaves them.
            assertEquals(List.of(k0.id() + "->1 [" + x + "]", k3.id() + "->4 [" + x + "]"), edges(ctx));
        }
    }
}
