package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.WRITE;
import static org.polygpu.sched.HostAccesses.CHUNK_BYTES;
import static org.polygpu.sched.HostAccesses.CHUNK_READS_BEFORE_WHOLE;

import java.lang.foreign.Arena;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.testing.NoWorkBackend;

/**
 * Host writes to an array the host does not hold whole move only their chunks: the written chunks become dirty on
 * the host, every device but the backing one Invalid, and whatever then uses the array whole gets only the chunks
 * that differ. (The values are checked on the emulator, in the {@code test} module's
 * {@code ChunkedHostWriteValuesTest}.)
 */
class ChunkedHostWriteTest {
    /** 4 MiB of floats plus 3 elements, so the last chunk is partial. */
    private static final long ELEMENTS = (1 << 20) + 3;
    private static final long PER_CHUNK = CHUNK_BYTES / 4;

    @Test
    void anElementWriteMovesOnlyItsChunkAndInvalidatesEveryDeviceButTheBackingOne() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray a = written(ctx);
            NoWorkContexts.launch(ctx, NoWorkContexts.kernel(ctx, "read", READ), a);
            assertEquals("0 1", NoWorkContexts.valid(ctx, a));
            ctx.write(a, 50 * PER_CHUNK + 1, 1.5f);
            assertEquals(CHUNK_BYTES, backend.deviceToHostBytes(), "one chunk came to the host, not 4 MiB");
            assertEquals(1, a.coherence().validLocations().size(),
                    "one backing device: " + NoWorkContexts.valid(ctx, a));
            assertTrue(a.coherence().hasHostDirty());
            assertEquals(1.5f, ctx.read(a, 50 * PER_CHUNK + 1));
            ctx.write(a, 50 * PER_CHUNK + 2, 2.5f);
            assertEquals(CHUNK_BYTES, backend.deviceToHostBytes(), "the chunk is on the host already");
            assertNull(a.directHostRead(), "element accesses keep going through the scheduler");
        }
    }

    @Test
    void aKernelAfterwardsGetsOnlyTheDirtyChunksFromTheHost() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel read = NoWorkContexts.kernel(ctx, "read", READ);
            DeviceArray a = written(ctx);
            ctx.write(a, 3 * PER_CHUNK, 1f);
            ctx.write(a, 4 * PER_CHUNK, 1f);
            ctx.write(a, 9 * PER_CHUNK, 1f);
            assertEquals("0", NoWorkContexts.valid(ctx, a));
            Computation c = NoWorkContexts.launch(ctx, read, a);
            assertEquals(1, c.device(), "the rotating policy moves on to device 1");
            assertEquals(a.byteSize(), backend.deviceToDeviceBytes(), "device 0's replica, the backing one");
            assertEquals(3 * CHUNK_BYTES, backend.hostToDeviceBytes(), "then the three dirty chunks, in two runs");
            assertEquals("1", NoWorkContexts.valid(ctx, a), "device 1 holds the only whole copy");
            assertFalse(a.coherence().hasHostDirty());
            long copies = backend.copyCount();
            ctx.read(a, 4 * PER_CHUNK);
            assertEquals(copies, backend.copyCount(), "the host's chunks stayed valid, no longer dirty");
            Computation again = NoWorkContexts.launch(ctx, read, a);
            assertEquals(0, again.device());
            assertEquals(2 * a.byteSize(), backend.deviceToDeviceBytes(), "device 0 is stale: a whole copy");
            assertEquals(3 * CHUNK_BYTES, backend.hostToDeviceBytes());
        }
    }

    @Test
    void aKernelOnTheBackingDeviceGetsTheDirtyChunksAlone() {
        try (NoWorkBackend backend = new NoWorkBackend(1);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray a = written(ctx);
            ctx.write(a, 7, 1f);
            NoWorkContexts.launch(ctx, NoWorkContexts.kernel(ctx, "read", READ), a);
            assertEquals(0, backend.deviceToDeviceBytes());
            assertEquals(CHUNK_BYTES, backend.hostToDeviceBytes());
            assertEquals("0", NoWorkContexts.valid(ctx, a));
        }
    }

    @Test
    void missesPastTheThresholdBringTheWholeArrayAndAWholeReadGetsOnlyTheMissingChunks() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray a = written(ctx);
            ctx.write(a, 0, 1f);
            try (Arena arena = Arena.ofConfined()) {
                ctx.copyToHost(a, arena.allocate(a.byteSize()));
            }
            assertEquals(a.byteSize(), backend.deviceToHostBytes(), "chunk 0, then every other chunk");
            assertEquals("host", NoWorkContexts.valid(ctx, a), "the host holds the only valid copy");

            DeviceArray b = written(ctx);
            long before = backend.deviceToHostBytes();
            for (int k = 0; k < CHUNK_READS_BEFORE_WHOLE; k++) {
                ctx.write(b, k * 2 * PER_CHUNK, 1f);
            }
            assertEquals(CHUNK_READS_BEFORE_WHOLE * CHUNK_BYTES, backend.deviceToHostBytes() - before);
            ctx.write(b, 100 * PER_CHUNK, 1f);
            assertEquals(b.byteSize(), backend.deviceToHostBytes() - before, "the chunks, then the rest");
            assertEquals("host", NoWorkContexts.valid(ctx, b));
        }
    }

    @Test
    void aRangeWriteBringsOnlyTheChunksAtItsEndsThatItCoversInPart() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray a = written(ctx);
            try (Arena arena = Arena.ofConfined()) {
                ctx.copyFromHost(a, 2 * CHUNK_BYTES, arena.allocate(3 * CHUNK_BYTES));
                assertEquals(0, backend.deviceToHostBytes(), "chunks 2 to 4, covered whole: nothing to bring");
                ctx.copyFromHost(a, 10 * CHUNK_BYTES + 8, arena.allocate(2 * CHUNK_BYTES));
                assertEquals(2 * CHUNK_BYTES, backend.deviceToHostBytes(), "chunks 10 and 12, covered in part");
            }
            assertTrue(a.coherence().hasHostDirty());
            assertEquals("0", NoWorkContexts.valid(ctx, a));
        }
    }

    @Test
    void aWholeKernelWriteOrHostWriteEndsTheDirtyState() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray a = written(ctx);
            ctx.write(a, 0, 1f);
            try (Arena arena = Arena.ofConfined()) {
                ctx.copyFromHost(a, arena.allocate(a.byteSize()));
            }
            assertFalse(a.coherence().hasHostDirty());
            assertEquals("host", NoWorkContexts.valid(ctx, a));
        }
    }

    /** A float array of {@link #ELEMENTS} written by a kernel, on device 0 in a fresh context: the host's is invalid. */
    private static DeviceArray written(ExecutionContext ctx) {
        Kernel fill = NoWorkContexts.kernel(ctx, "fill", WRITE);
        DeviceArray a = ctx.newArray(ElementType.FLOAT, ELEMENTS);
        NoWorkContexts.launch(ctx, fill, a);
        return a;
    }
}
