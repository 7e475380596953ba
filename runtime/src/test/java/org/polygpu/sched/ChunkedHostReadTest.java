package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
 * Element reads bring the host only the chunk that holds the element, until the host has read
 * {@link HostAccesses#CHUNK_READS_BEFORE_WHOLE} chunks alone, then the whole array (writes: {@code ChunkedHostWriteTest}).
 * (The values read are checked on the emulator, in the {@code test} module's {@code ChunkedHostReadValuesTest}.)
 */
class ChunkedHostReadTest {
    /** 4 MiB of floats plus 3 elements, so the last chunk is partial. */
    private static final long ELEMENTS = (1 << 20) + 3;
    private static final long PER_CHUNK = CHUNK_BYTES / 4;

    @Test
    void oneElementReadCopiesOnlyItsChunkAndRereadsOfTheChunkCopyNothing() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray a = written(ctx);
            long copies = backend.copyCount();
            ctx.read(a, 5 * PER_CHUNK + 7);
            assertEquals(copies + 1, backend.copyCount(), "one copy");
            assertEquals(CHUNK_BYTES, backend.deviceToHostBytes(), "of one chunk, not 4 MiB");
            ctx.read(a, 5 * PER_CHUNK);
            ctx.read(a, 6 * PER_CHUNK - 1);
            assertEquals(copies + 1, backend.copyCount(), "the chunk's other elements are on the host already");
            ctx.read(a, ELEMENTS - 1);
            assertEquals(CHUNK_BYTES + 12, backend.deviceToHostBytes(), "the last, partial chunk: 3 floats");
            assertEquals("0", NoWorkContexts.valid(ctx, a), "the host copy is not valid as a whole");
            assertNull(a.directHostRead(), "so element reads keep going through the scheduler");
        }
    }

    @Test
    void afterTheThresholdAMissCopiesTheWholeArrayAndGrantsDirectReads() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray a = written(ctx);
            long copies = backend.copyCount();
            for (int k = 0; k < CHUNK_READS_BEFORE_WHOLE; k++) {
                ctx.read(a, k * 3 * PER_CHUNK);
            }
            assertEquals(copies + CHUNK_READS_BEFORE_WHOLE, backend.copyCount());
            assertEquals("0", NoWorkContexts.valid(ctx, a));
            ctx.read(a, 100 * PER_CHUNK);
            assertEquals(copies + CHUNK_READS_BEFORE_WHOLE + 1, backend.copyCount());
            assertEquals(CHUNK_READS_BEFORE_WHOLE * CHUNK_BYTES + a.byteSize(), backend.deviceToHostBytes(),
                    "the chunks, then the whole array");
            assertEquals("0 host", NoWorkContexts.valid(ctx, a));
            assertNotNull(a.directHostRead(), "later element reads skip the scheduler");
        }
    }

    @Test
    void aKernelWriteInvalidatesTheHostsChunksAndRestartsTheCount() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel fill = NoWorkContexts.kernel(ctx, "fill", WRITE);
            DeviceArray a = written(ctx);
            for (int k = 0; k < CHUNK_READS_BEFORE_WHOLE; k++) {
                ctx.read(a, k * PER_CHUNK);
            }
            NoWorkContexts.launch(ctx, fill, a);
            long copies = backend.copyCount();
            ctx.read(a, 0);
            assertEquals(copies + 1, backend.copyCount(), "chunk 0 is stale after the kernel: copied again");
            assertEquals("1", NoWorkContexts.valid(ctx, a), "still one chunk, not the whole array");
            assertEquals(CHUNK_READS_BEFORE_WHOLE * CHUNK_BYTES + CHUNK_BYTES, backend.deviceToHostBytes());
        }
    }

    @Test
    void aKernelReadingAfterAPartialHostReadCopiesFromADeviceNotFromTheHost() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel read = NoWorkContexts.kernel(ctx, "read", READ);
            DeviceArray a = written(ctx);
            ctx.read(a, 0);
            Computation c = NoWorkContexts.launch(ctx, read, a);
            assertEquals(1, c.device(), "the rotating policy moves on to device 1");
            assertEquals("0 1", NoWorkContexts.valid(ctx, a), "copied from device 0; the host is still partial");
            long copies = backend.copyCount();
            ctx.read(a, 1);
            assertEquals(copies, backend.copyCount(), "the host's chunk stayed valid through a read elsewhere");
        }
    }

    @Test
    void aPartialBulkReadCopiesOnlyTheChunksItOverlapsThatTheHostLacks() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray a = written(ctx);
            ctx.read(a, 3 * PER_CHUNK);
            long copies = backend.copyCount();
            try (Arena arena = Arena.ofConfined()) {
                // Bytes from the middle of chunk 1 to the middle of chunk 5: chunks 1-2 and 4-5, around chunk 3.
                ctx.copyToHost(a, CHUNK_BYTES + 100, arena.allocate(4 * CHUNK_BYTES));
                assertEquals(copies + 2, backend.copyCount(), "two runs of missing chunks");
                assertEquals(5 * CHUNK_BYTES, backend.deviceToHostBytes(), "chunk 3, then chunks 1, 2, 4 and 5");
                ctx.copyToHost(a, 2 * CHUNK_BYTES, arena.allocate(CHUNK_BYTES));
                ctx.read(a, PER_CHUNK);
                assertEquals(copies + 2, backend.copyCount(), "nothing more: those chunks are on the host");
                assertEquals("0", NoWorkContexts.valid(ctx, a));
                ctx.copyToHost(a, arena.allocate(a.byteSize()));
                assertEquals(5 * CHUNK_BYTES + a.byteSize(), backend.deviceToHostBytes(), "a whole read: all of it");
                assertEquals("0 host", NoWorkContexts.valid(ctx, a));
            }
        }
    }

    /** A float array of {@link #ELEMENTS} written by a kernel on device 0, so the host copy is invalid. */
    private static DeviceArray written(ExecutionContext ctx) {
        Kernel fill = NoWorkContexts.kernel(ctx, "fill", WRITE);
        DeviceArray a = ctx.newArray(ElementType.FLOAT, ELEMENTS);
        Computation c = NoWorkContexts.launch(ctx, fill, a);
        assertEquals(0, c.device());
        return a;
    }
}
