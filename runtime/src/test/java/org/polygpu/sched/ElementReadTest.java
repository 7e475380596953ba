package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.polygpu.array.Access.WRITE;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.testing.NoWorkBackend;

/**
 * Reading one element never brings the whole array to the host (chunked host reads: {@link ChunkedHostReadTest}), and
 * sizes are checked in exact arithmetic against
 * the device's memory before anything is allocated.
 */
class ElementReadTest {
    @Test
    void anElementWrittenOnADeviceIsCopiedAloneToTheHost() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel fill = NoWorkContexts.kernel(ctx, "fill", WRITE);
            DeviceArray big = ctx.newArray(ElementType.FLOAT, 1 << 24);
            assertEquals(0.0f, ctx.read(big, 5), "a pristine array reads as zero");
            assertEquals(0, backend.hostBytes(), "without allocating its host copy");
            NoWorkContexts.launch(ctx, fill, big);
            long copies = backend.copyCount();
            assertEquals(0.0f, ctx.read(big, (1 << 24) - 1));
            assertEquals(copies + 1, backend.copyCount(), "one copy, of the element");
            assertEquals(4, backend.hostBytes(), "4 bytes staged, not 64 MiB");
            assertEquals("0", NoWorkContexts.valid(ctx, big), "the host copy is still not valid");
        }
    }

    @Test
    void anElementWriteToALargeArrayOnADeviceIsCopiedAloneIntoItsReplica() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray big = ctx.newArray(ElementType.FLOAT, 1 << 24);
            NoWorkContexts.launch(ctx, NoWorkContexts.kernel(ctx, "fill", WRITE), big);
            NoWorkContexts.launch(ctx, NoWorkContexts.kernel(ctx, "read", org.polygpu.array.Access.READ), big);
            assertEquals("0 1", NoWorkContexts.valid(ctx, big));
            long copies = backend.copyCount();
            ctx.write(big, 12345, 2.5f);
            assertEquals(copies + 1, backend.copyCount(), "one copy, of the element");
            assertEquals(4, backend.hostToDeviceBytes());
            assertEquals(4, backend.hostBytes(), "4 bytes staged, not 64 MiB");
            assertEquals("0", NoWorkContexts.valid(ctx, big), "the replica written is the only valid copy");
        }
    }

    @Test
    void readingEveryElementOfAnArrayUpTo16MiBCostsAFewChunksThenOneWholeCopy() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel fill = NoWorkContexts.kernel(ctx, "fill", WRITE);
            DeviceArray small = ctx.newArray(ElementType.FLOAT, 1 << 20);
            NoWorkContexts.launch(ctx, fill, small);
            long copies = backend.copyCount();
            for (int i = 0; i < 1 << 20; i++) {
                ctx.read(small, i);
            }
            assertEquals(copies + HostAccesses.CHUNK_READS_BEFORE_WHOLE + 1, backend.copyCount());
            assertEquals("0 host", NoWorkContexts.valid(ctx, small));
        }
    }

    @Test
    void shapesTooLargeForLongOrForTheDeviceAreRejected() {
        try (NoWorkBackend backend = new NoWorkBackend(2);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            IllegalArgumentException wraps = assertThrows(IllegalArgumentException.class,
                    () -> ctx.newArray(ElementType.DOUBLE, 1L << 32, 1L << 32));
            assertTrue(wraps.getMessage().contains("is too large: 147573952589676412928 bytes"), wraps.getMessage());
            IllegalArgumentException device = assertThrows(IllegalArgumentException.class,
                    () -> ctx.newArray(ElementType.FLOAT, 1L << 40));
            assertTrue(device.getMessage().matches("array #\\d+ float\\[1099511627776\\] is too large: 4398046511104 "
                    + "bytes, more than the \\d+ bytes of device memory"), device.getMessage());
        }
    }
}
