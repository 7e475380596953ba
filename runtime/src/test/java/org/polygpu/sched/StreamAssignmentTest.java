package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.READ_WRITE;
import static org.polygpu.array.Access.WRITE;
import static org.polygpu.sched.NoWorkContexts.NOTHING_FINISHES;
import static org.polygpu.sched.NoWorkContexts.array;
import static org.polygpu.sched.NoWorkContexts.launch;
import static org.polygpu.sched.NoWorkContexts.where;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.config.RetrieveParentStreamPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicy;

/**
 * Devices and streams given to computations (paper Fig. 5), as {@code device:stream}, under each parent-stream
 * policy. Devices come from {@link RotatingPolicy} when the scheduler asks the device-selection policy; nothing
 * finishes by itself, so every earlier computation is a live parent.
 */
class StreamAssignmentTest {
    /**
     * A writes x; B and C read x; D and E read B's output. B takes A's stream and D takes it from B, since B holds it
     * now; C and E find their parent's stream lent and, unless the policy is same-as-parent, get another stream on
     * the device the policy picks next (GrCUDA's disjoint rule, not the parent's device). Under
     * multigpu-early-disjoint the policy picks the device first: B goes to device 1 on a new stream, C back to A's
     * device and stream, D to B's device and stream.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "SAME_AS_PARENT,          0:0, 0:0, 0:0, 0:0",
        "DISJOINT,                0:0, 1:0, 0:0, 0:1",
        "MULTIGPU_EARLY_DISJOINT, 1:0, 0:0, 1:0, 0:1",
        "MULTIGPU_DISJOINT,       0:0, 1:0, 0:0, 0:1",
    })
    void aParentLendsItsStreamToOneChildAndTheChildCanLendItOn(RetrieveParentStreamPolicy policy, String b,
                                                                String c, String d, String e) {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     NoWorkContexts.config().withParentStreamPolicy(policy))) {
            Kernel produce = NoWorkContexts.kernel(ctx, "produce", WRITE);
            Kernel map = NoWorkContexts.kernel(ctx, "map", READ, WRITE);
            DeviceArray x = array(ctx);
            DeviceArray y = array(ctx);
            Computation a = launch(ctx, produce, x);
            List<String> children = List.of(where(launch(ctx, map, x, y)), where(launch(ctx, map, x, array(ctx))),
                    where(launch(ctx, map, y, array(ctx))), where(launch(ctx, map, y, array(ctx))));
            assertEquals("0:0", where(a));
            assertEquals(List.of(b, c, d, e), children);
        }
    }

    /**
     * Once a stream's work finished, the stream is free for a new chain (RetrieveNewStreamPolicy=reuse), and that
     * chain's first computation can lend it to one child, whatever the stream's earlier computations did.
     */
    @Test
    void aStreamReusedByANewChainCanBeLentAgain() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     NoWorkContexts.config().withParentStreamPolicy(RetrieveParentStreamPolicy.DISJOINT))) {
            Kernel produce = NoWorkContexts.kernel(ctx, "produce", WRITE);
            Kernel map = NoWorkContexts.kernel(ctx, "map", READ, WRITE);
            DeviceArray x = array(ctx);
            DeviceArray u = array(ctx);
            List<String> seen = new ArrayList<>();
            seen.add(where(launch(ctx, produce, x)));
            seen.add(where(launch(ctx, map, x, array(ctx))));
            ctx.synchronize();
            seen.add(where(launch(ctx, produce, u)));
            seen.add(where(launch(ctx, map, u, array(ctx))));
            seen.add(where(launch(ctx, map, u, array(ctx))));
            assertEquals(List.of("0:0", "0:0", "0:0", "0:0", "0:1"), seen);
            assertEquals(2, ctx.streamCount(0));
        }
    }

    /** One pipeline per device, launched stage by stage: each stage takes its predecessor's device and stream. */
    @Test
    void independentPipelinesStayOnTheirDeviceAndStream() {
        try (NoWorkBackend backend = new NoWorkBackend(4, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel step = NoWorkContexts.kernel(ctx, "step", READ_WRITE);
            List<DeviceArray> xs = List.of(array(ctx), array(ctx), array(ctx), array(ctx));
            List<List<String>> stages = new ArrayList<>();
            for (int stage = 0; stage < 3; stage++) {
                List<String> seen = new ArrayList<>();
                for (DeviceArray x : xs) {
                    seen.add(where(launch(ctx, step, x)));
                }
                stages.add(seen);
            }
            List<String> expected = List.of("0:0", "1:0", "2:0", "3:0");
            assertEquals(List.of(expected, expected, expected), stages);
            assertEquals(List.of(1, 1, 1, 1), List.of(ctx.streamCount(0), ctx.streamCount(1), ctx.streamCount(2),
                    ctx.streamCount(3)));
        }
    }

    /**
     * Under multigpu-disjoint, joins of two producers (on devices 0 and 1) choose among the devices of parents whose
     * stream is still free: the policy picks between both for the first join, the second join gets the only one
     * left without asking, and the third, with none left, gets a new stream where the policy says.
     */
    @Test
    void joinsTakeTheStreamOfAParentThatHasNotLentItYet() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel produce = NoWorkContexts.kernel(ctx, "produce", WRITE);
            Kernel join = NoWorkContexts.kernel(ctx, "join", READ, READ, WRITE);
            DeviceArray a = array(ctx);
            DeviceArray b = array(ctx);
            List<String> seen = new ArrayList<>();
            seen.add(where(launch(ctx, produce, a)));
            seen.add(where(launch(ctx, produce, b)));
            List<Integer> parents = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Computation j = launch(ctx, join, a, b, array(ctx));
                seen.add(where(j));
                parents.add(j.vertexParentCount());
            }
            assertEquals(List.of("0:0", "1:0", "0:0", "1:0", "1:1"), seen);
            assertEquals(List.of(2, 2, 2), parents);
        }
    }

    /** A policy that answers a device outside the candidates is a bug in the policy, reported as such. */
    @Test
    void aDeviceOutsideTheCandidatesIsRefused() {
        try (NoWorkBackend backend = new NoWorkBackend(2)) {
            Schedule schedule = new Schedule(backend, NoWorkContexts.config(), 2);
            DeviceSelectionPolicy alwaysThree = (request, candidates) -> 3;
            StreamAssignment assignment = new StreamAssignment(RetrieveParentStreamPolicy.MULTIGPU_DISJOINT,
                    alwaysThree, schedule, DeviceBudgets.of(backend, 2));
            DeviceArray src = new DeviceArray(0, ElementType.FLOAT, new long[] {4}, 2);
            DeviceArray dst = new DeviceArray(1, ElementType.FLOAT, new long[] {4}, 2);
            Computation c = new Computation(schedule.nextId(), new DeviceCopy(src, dst));
            schedule.append(c);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> assignment.assign(c));
            assertEquals("device-selection policy chose device 3, which is not among the candidates {0, 1}",
                    e.getMessage());
        }
    }
}
