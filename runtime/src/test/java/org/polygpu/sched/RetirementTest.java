package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.polygpu.config.ExecutionPolicy;
import org.polygpu.config.RuntimeConfig;

/** Retirement: finished computations leave the DAG, their events return to the pool and are reused. */
class RetirementTest {
    /**
     * With events completing 3 records late, polling after each launch of a chain retires all but the last 3: the
     * live DAG stays at 3 vertices and 4 events serve the whole chain.
     */
    @Test
    void pollingRetiresWorkOnceItsEventCompletes() {
        try (NoWorkBackend backend = new NoWorkBackend(1, 3);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            DeviceArray x = array(ctx);
            List<Computation> chain = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                chain.add(launch(ctx, step, x));
            }
            assertEquals(3, ctx.dag().vertexCount());
            assertEquals(4, backend.eventCount());
            assertEquals(17, chain.stream().filter(Computation::isFinished).count());
            assertEquals(List.of(false, false, false), chain.subList(17, 20).stream().map(Computation::isFinished)
                    .toList());
        }
    }

    @Test
    void synchronizeRetiresEverythingAndLaterWorkReusesTheEvents() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            DeviceArray x = array(ctx);
            List<Computation> first = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                first.add(launch(ctx, step, x));
            }
            List<Object> before = List.of(ctx.dag().vertexCount(), backend.eventCount());
            ctx.synchronize();
            List<Object> after = List.of(ctx.dag().vertexCount(), first.stream().allMatch(Computation::isFinished));
            for (int i = 0; i < 10; i++) {
                launch(ctx, step, x);
            }
            ctx.synchronize();
            assertEquals(List.of(10, 10L), before);
            assertEquals(List.of(0, true), after);
            assertEquals(List.of(0, 10L), List.of(ctx.dag().vertexCount(), backend.eventCount()));
        }
    }

    /** A host read of x waits for x's writer, which retires; the writer of y on another device keeps running. */
    @Test
    void aHostReadRetiresTheWritersOfItsArrayOnly() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            DeviceArray x = array(ctx);
            DeviceArray y = array(ctx);
            Computation writesX = launch(ctx, step, x);
            Computation writesY = launch(ctx, step, y);
            ctx.read(x, 0);
            assertEquals(List.of(true, false, 1), List.of(writesX.isFinished(), writesY.isFinished(),
                    ctx.dag().vertexCount()));
        }
    }

    /** Freeing an array waits for the computations using it; the DAG forgets it and keeps only the output's history. */
    @Test
    void freeRetiresTheComputationsUsingTheArray() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel map = NoWorkContexts.kernel(ctx, "map", READ, WRITE);
            DeviceArray x = array(ctx);
            Computation reader = launch(ctx, map, x, array(ctx));
            ctx.free(x);
            assertEquals(List.of(true, true, 0, 1), List.of(reader.isFinished(), x.isFreed(),
                    ctx.dag().vertexCount(), ctx.dag().trackedArrayCount()));
        }
    }

    /** ExecutionPolicy=sync: every launch has finished and left the DAG when launch returns; one event serves all. */
    @Test
    void syncExecutionRetiresEveryLaunchBeforeItReturns() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     NoWorkContexts.config().withExecutionPolicy(ExecutionPolicy.SYNC))) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            DeviceArray x = array(ctx);
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Computation c = launch(ctx, step, x);
                seen.add(c.isFinished() + " " + ctx.dag().vertexCount());
            }
            assertEquals(List.of("true 0", "true 0", "true 0"), seen);
            assertEquals(1, backend.eventCount());
        }
    }

    /** A launch whose placement fails leaves the DAG at once, so later work neither waits for it nor depends on it. */
    @Test
    void aComputationWhosePlacementFailsLeavesTheDag() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     RuntimeConfig.defaults().withDeviceSelectionPolicy(OutOfRangePolicy.NAME))) {
            Kernel fill = NoWorkContexts.kernel(ctx, "fill", WRITE);
            DeviceArray x = array(ctx);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> launch(ctx, fill, x));
            assertTrue(e.getMessage().contains("chose device 2"), e.getMessage());
            assertEquals(0, ctx.dag().vertexCount());
            assertEquals(0f, ctx.read(x, 0), "the host read does not wait for the failed launch");
        }
    }
}
