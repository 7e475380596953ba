package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.JavaKernelModule;
import org.polygpu.emulator.KernelCost;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;

/**
 * Element reads that bring the host one chunk at a time read the right values on emulated devices with separate
 * memories, after kernels on two devices wrote different chunks, and a host write after a partial read keeps the
 * rest of the array.
 */
class ChunkedHostReadValuesTest {
    /** Floats per 4 KiB chunk. */
    private static final int PER_CHUNK = 1024;
    private static final int N = 8 * PER_CHUNK;
    /** {@code inc_range(x, from, count)}: adds 1 to {@code x[from..from+count)}. */
    private static final JavaKernelModule RANGE = JavaKernelModule.builder()
            .kernel("inc_range", k -> {
                MemorySegment x = k.pointer(0);
                int from = k.intArg(1);
                int count = k.intArg(2);
                for (int i = from; i < from + count; i++) {
                    x.setAtIndex(Fixtures.F, i, x.getAtIndex(Fixtures.F, i) + 1);
                }
            }, KernelCost.perElement(1, 1, Fixtures.BYTES_PER_ELEMENT))
            .build();

    @Test
    void valuesAreRightAfterKernelsWroteDifferentChunks() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("round-robin"))) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            Fixtures.fillWithIndices(ctx, x);
            ctx.launch(inc, Fixtures.launch(), x, N);
            assertEquals(6f, (Float) ctx.read(x, 5), "x[i] = i + 1 everywhere");
            assertEquals(4 * PER_CHUNK + 4f, (Float) ctx.read(x, 4 * PER_CHUNK + 3));
            assertEquals(PER_CHUNK + 1f, (Float) ctx.read(x, PER_CHUNK));
            // Chunk 4 alone, on the other device: the host's chunk 0 is stale too as far as coherence knows.
            Kernel incRange = ctx.kernel("inc_range", RANGE, List.of(
                    Parameter.pointer("x", ElementType.FLOAT, Access.READ_WRITE),
                    Parameter.scalar("from", ElementType.INT), Parameter.scalar("count", ElementType.INT)));
            ctx.launch(incRange, Fixtures.launch(), x, 4 * PER_CHUNK, PER_CHUNK);
            assertEquals(6f, (Float) ctx.read(x, 5));
            assertEquals(4 * PER_CHUNK + 5f, (Float) ctx.read(x, 4 * PER_CHUNK + 3),
                    "i + 2 in chunk 4, which the host had read before the kernel");
            assertEquals(5 * PER_CHUNK + 1f, (Float) ctx.read(x, 5 * PER_CHUNK), "i + 1 past it");
            // Chunk 1 alone, back on the first device.
            ctx.launch(incRange, Fixtures.launch(), x, PER_CHUNK, PER_CHUNK);
            for (int i = 0; i < N; i += 97) {
                float expected = i + 1 + (i / PER_CHUNK == 1 || i / PER_CHUNK == 4 ? 1 : 0);
                assertEquals(expected, (Float) ctx.read(x, i), "x[" + i + "]");
            }
        }
    }

    @Test
    void aHostWriteAfterAPartialReadKeepsTheRestOfTheArray() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("round-robin"))) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            Fixtures.fillWithIndices(ctx, x);
            ctx.launch(inc, Fixtures.launch(), x, N);
            assertEquals(1f, (Float) ctx.read(x, 0));
            ctx.write(x, 6 * PER_CHUNK, -1f);
            ctx.launch(inc, Fixtures.launch(), x, N);
            assertEquals(0f, (Float) ctx.read(x, 6 * PER_CHUNK), "the written element, incremented");
            assertEquals(2f, (Float) ctx.read(x, 0));
            assertEquals(6 * PER_CHUNK + 3f, (Float) ctx.read(x, 6 * PER_CHUNK + 1), "its neighbour kept its value");
            assertEquals(N + 1f, (Float) ctx.read(x, N - 1));
        }
    }

}
