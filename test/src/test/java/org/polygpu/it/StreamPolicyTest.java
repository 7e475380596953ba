package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.polygpu.config.RetrieveParentStreamPolicy;
import org.polygpu.config.RetrieveNewStreamPolicy;
import org.polygpu.config.ExecutionPolicy;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;

/** The stream options: how children take their parents' streams (paper Fig. 5), new streams, sync execution. */
class StreamPolicyTest {
    private static final int N = 1000;

    /**
     * A writes x; B and C read it. Same-as-parent gives A's stream to both. Disjoint and multigpu-disjoint give it
     * to B and C a new stream on the device the policy (here round-robin, next device 1) picks. Multigpu-early-disjoint
     * asks the policy first: B goes to device 1 on a new stream, C to device 0, where A's stream is still free.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "same-as-parent, 0, 0, 0, 0",
        "disjoint, 0, 0, 1, 0",
        "multigpu-early-disjoint, 1, 0, 0, 0",
        "multigpu-disjoint, 0, 0, 1, 0",
    })
    void childrenOfOneParent(String policy, int bDevice, int bStream, int cDevice, int cStream) {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend, c -> c
                     .withParentStreamPolicy(Fixtures.option(RetrieveParentStreamPolicy.class, policy))
                     .withDeviceSelectionPolicy("round-robin"))) {
            Kernel inc = Fixtures.inc(ctx);
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            Computation a = ctx.launch(inc, Fixtures.launch(), x, N);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray z = ctx.newArray(ElementType.FLOAT, N);
            Computation b = ctx.launch(scale, Fixtures.launch(), x, y, N, 2f);
            Computation c = ctx.launch(scale, Fixtures.launch(), x, z, N, 3f);
            assertEquals(List.of(0, 0), List.of(a.device(), a.streamId()));
            assertEquals(List.of(bDevice, bStream, cDevice, cStream),
                    List.of(b.device(), b.streamId(), c.device(), c.streamId()));
            assertEquals(3f, (Float) ctx.read(z, 1));
            assertEquals(2f, (Float) ctx.read(y, 1));
        }
    }

    @Test
    void alwaysNewCreatesAStreamPerIndependentComputationWhileReuseTakesFreeOnes() {
        for (String policy : List.of("reuse", "always-new")) {
            try (EmulatedBackend backend = Fixtures.backend(1, "h100x1");
                 ExecutionContext ctx = Fixtures.context(backend,
                         c -> c.withNewStreamPolicy(Fixtures.option(RetrieveNewStreamPolicy.class, policy)))) {
                Kernel inc = Fixtures.inc(ctx);
                for (int i = 0; i < 6; i++) {
                    DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
                    ctx.launch(inc, Fixtures.launch(), x, N);
                    ctx.synchronize();
                }
                assertEquals(policy.equals("reuse") ? 1 : 6, ctx.streamCount(0), policy);
            }
        }
    }

    @Test
    void syncExecutionFinishesEveryLaunchBeforeReturning() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withExecutionPolicy(ExecutionPolicy.SYNC))) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            for (int i = 0; i < 3; i++) {
                Computation c = ctx.launch(inc, Fixtures.launch(), x, N);
                assertTrue(c.isFinished());
                assertEquals(0, ctx.dag().vertexCount());
            }
            assertEquals(3f, (Float) ctx.read(x, 0));
        }
    }
}
