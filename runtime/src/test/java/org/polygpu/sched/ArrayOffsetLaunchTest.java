package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.WRITE;
import static org.polygpu.sched.NoWorkContexts.ELEMENTS;
import static org.polygpu.sched.NoWorkContexts.NOTHING_FINISHES;
import static org.polygpu.sched.NoWorkContexts.array;

import org.junit.jupiter.api.Test;
import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.testing.NoWorkBackend;

/** A pointer offset as a kernel argument: scheduled as its whole array, launched as the replica plus the offset. */
class ArrayOffsetLaunchTest {
    private static Computation launch(ExecutionContext ctx, Kernel kernel, Object pointer) {
        return ctx.launch(kernel, LaunchConfig.of(1, 32), new Object[] {pointer, ELEMENTS});
    }

    @Test
    void anOffsetDependsOnAndIsDependedOnAsItsWholeArray() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel produce = NoWorkContexts.kernel(ctx, "produce", WRITE);
            Kernel consume = NoWorkContexts.kernel(ctx, "consume", READ);
            DeviceArray x = array(ctx);
            Computation write = launch(ctx, produce, new ArrayOffset(x, ELEMENTS / 2));
            Computation read = launch(ctx, consume, x);
            Computation readTail = launch(ctx, consume, new ArrayOffset(x, ELEMENTS - 1));
            assertSame(x, write.accesses()[0].array());
            assertEquals(1, read.vertexParentCount(), "the whole array's reader waits for the offset's writer");
            assertSame(write, read.vertex().parent(0).computation());
            assertEquals(1, readTail.vertexParentCount(), "a reader through another offset waits too");
            assertSame(write, readTail.vertex().parent(0).computation());
        }
    }

    @Test
    void theBackendReceivesTheReplicaAndTheOffsetInBytes() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel produce = NoWorkContexts.kernel(ctx, "produce", WRITE);
            DeviceArray x = array(ctx);
            launch(ctx, produce, new ArrayOffset(x, 5));
            ctx.synchronize();
            Object[] launched = backend.lastLaunchArguments();
            BufferOffset o = assertInstanceOf(BufferOffset.class, launched[0]);
            assertSame(x.deviceReplica(0), o.buffer());
            assertEquals(5L * Float.BYTES, o.bytes());
            assertEquals(ELEMENTS, launched[1]);
        }
    }

    @Test
    void offsetsOutsideTheArrayAreRefused() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray x = array(ctx);
            assertEquals(ELEMENTS * 4L, new ArrayOffset(x, ELEMENTS).bytes(), "one past the end, as in C");
            IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
                    () -> new ArrayOffset(x, ELEMENTS + 1));
            assertTrue(past.getMessage().contains("offset 65 is outside") && past.getMessage().contains("0..64"),
                    past.getMessage());
            assertThrows(IllegalArgumentException.class, () -> new ArrayOffset(x, -1));
        }
    }
}
