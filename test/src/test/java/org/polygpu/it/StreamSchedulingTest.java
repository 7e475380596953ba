package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.config.DependencyPolicy;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.TimedOperation;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;

/** Streams and host waits: readers run concurrently, host accesses wait only for what their array depends on. */
class StreamSchedulingTest {
    private static final int N = 1000;

    private static TimedOperation kernelOf(ExecutionContext ctx, Computation c) {
        return ctx.timeline().stream()
                .filter(op -> op.kind() == TimedOperation.Kind.KERNEL && op.label().computationId() == c.id())
                .findFirst().orElseThrow();
    }

    @Test
    void readOnlyKernelsOnOneArrayRunConcurrentlyOnDifferentStreams() {
        try (EmulatedBackend backend = Fixtures.backend(1, "h100x1");
             ExecutionContext ctx = Fixtures.context(backend)) {
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            ctx.write(x, 0, 1f);
            Computation r1 = ctx.launch(scale, Fixtures.launch(), x, ctx.newArray(ElementType.FLOAT, N), N, 2f);
            Computation r2 = ctx.launch(scale, Fixtures.launch(), x, ctx.newArray(ElementType.FLOAT, N), N, 3f);
            assertEquals(0, r1.vertexParentCount());
            assertEquals(0, r2.vertexParentCount());
            assertNotEquals(r1.streamId(), r2.streamId());
            ctx.synchronize();
            TimedOperation k1 = kernelOf(ctx, r1);
            TimedOperation k2 = kernelOf(ctx, r2);
            assertTrue(k2.startNanos() < k1.endNanos(), "the second reader starts before the first ends: " + k1
                    + " " + k2);
        }
    }

    @Test
    void noConstSerialisesTheSameReaders() {
        try (EmulatedBackend backend = Fixtures.backend(1, "h100x1");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDependencyPolicy(DependencyPolicy.NO_CONST))) {
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            Computation r1 = ctx.launch(scale, Fixtures.launch(), x, ctx.newArray(ElementType.FLOAT, N), N, 2f);
            Computation r2 = ctx.launch(scale, Fixtures.launch(), x, ctx.newArray(ElementType.FLOAT, N), N, 3f);
            assertEquals(r1.streamId(), r2.streamId());
            ctx.synchronize();
            assertTrue(kernelOf(ctx, r2).startNanos() >= kernelOf(ctx, r1).endNanos());
        }
    }

    /** Host accesses with no live parents skip the DAG unless it is recorded; both paths must wait alike. */
    @ParameterizedTest(name = "RecordDag={0}")
    @ValueSource(booleans = {true, false})
    void hostReadAfterAReadOnlyKernelDoesNotWaitButAHostWriteDoes(boolean recordDag) {
        try (EmulatedBackend backend = Fixtures.backend(1, "h100x1");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withRecording(recordDag, true))) {
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            ctx.write(x, 3, 7f);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            Computation reader = ctx.launch(scale, Fixtures.launch(), x, y, N, 2f);
            long before = backend.hostNanos();
            assertEquals(7f, (Float) ctx.read(x, 3));
            assertTrue(!reader.isFinished(), "the host read did not wait for the reader");
            assertTrue(backend.hostNanos() - before < 50_000, "host time moved " + (backend.hostNanos() - before));
            ctx.write(x, 3, 8f);
            assertTrue(reader.isFinished(), "the host write waited for the reader");
            assertTrue(backend.hostNanos() >= kernelOf(ctx, reader).endNanos());
            assertEquals(14f, (Float) ctx.read(y, 3), "the reader saw the old value");
        }
    }

    @ParameterizedTest(name = "RecordDag={0}")
    @ValueSource(booleans = {true, false})
    void hostReadOfAKernelResultWaitsForThatKernelOnly(boolean recordDag) {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend,
                     c -> c.withDeviceSelectionPolicy("round-robin").withRecording(recordDag, true))) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, 100 * N);
            Computation slow = ctx.launch(inc, Fixtures.launch(), y, 100 * N);
            Computation fast = ctx.launch(inc, Fixtures.launch(), x, N);
            assertEquals(1f, (Float) ctx.read(x, 0));
            assertTrue(fast.isFinished());
            assertTrue(!slow.isFinished(), "reading x did not wait for the kernel on y");
        }
    }
}
