package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.WRITE;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.testing.NoWorkBackend;

/**
 * What host copies move: a program's own (pageable, here Java heap) buffer is copied once into the array's host
 * replica, which is the backend's pinned memory and the only host memory allocated for it, and the device copy runs
 * from there, once, whole; nothing is staged twice.
 */
class HostCopiesTest {
    private static final int FLOATS = 1 << 18; // 1 MiB
    private static final long BYTES = FLOATS * 4L;

    @Test
    void aPageableBufferIsStagedOnceThroughThePinnedReplicaAndCopiedToTheDeviceOnce() {
        try (NoWorkBackend backend = new NoWorkBackend(1);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel read = NoWorkContexts.kernel(ctx, "read", READ);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, FLOATS);
            ctx.copyFromHost(x, MemorySegment.ofArray(new float[FLOATS]));
            assertEquals(BYTES, backend.hostBytes(), "the pinned replica is the only host memory allocated");
            assertEquals(0, backend.copyCount(), "the host write itself enqueues no device copy");
            ctx.launch(read, LaunchConfig.of(1, 32), x, FLOATS);
            ctx.launch(read, LaunchConfig.of(1, 32), x, FLOATS);
            assertEquals(1, backend.copyCount());
            assertEquals(BYTES, backend.hostToDeviceBytes());
            assertEquals(BYTES, backend.hostBytes());
        }
    }

    @Test
    void aWholeArrayReadBackIsOneDeviceToHostCopyIntoThePinnedReplica() {
        try (NoWorkBackend backend = new NoWorkBackend(1);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel fill = NoWorkContexts.kernel(ctx, "fill", WRITE);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, FLOATS);
            ctx.launch(fill, LaunchConfig.of(1, 32), x, FLOATS);
            float[] out = new float[FLOATS];
            ctx.copyToHost(x, MemorySegment.ofArray(out));
            assertEquals(1, backend.copyCount());
            assertEquals(BYTES, backend.deviceToHostBytes());
            assertEquals(BYTES, backend.hostBytes());
        }
    }
}
