package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.JavaKernelModule;
import org.polygpu.emulator.KernelCost;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * Host element and range writes that move only their chunks give the right values on emulated devices with separate
 * memories, against a reference kept in Java, under every mix of seeded random operations: kernels on changing
 * devices writing all of an array or one chunk, kernels and device copies reading it elsewhere afterwards, host
 * element and range reads and writes, and, with device memory for about two arrays and a half, evictions of the
 * device replica that backs the host's written chunks.
 */
class ChunkedHostWriteValuesTest {
    /** Floats per 4 KiB chunk. */
    private static final int PER_CHUNK = 1024;
    /** Eight chunks and a partial one. */
    private static final int N = 8 * PER_CHUNK + 37;
    private static final int OPERATIONS = 80;
    /** {@code inc_range(x, from, count)}: adds 1 to {@code x[from..from+count)}. */
    private static final JavaKernelModule RANGE = JavaKernelModule.builder()
            .kernel("inc_range", k -> {
                MemorySegment x = k.pointer(0);
                for (int i = k.intArg(1); i < k.intArg(1) + k.intArg(2); i++) {
                    x.setAtIndex(Fixtures.F, i, x.getAtIndex(Fixtures.F, i) + 1);
                }
            }, KernelCost.perElement(1, 1, Fixtures.BYTES_PER_ELEMENT))
            .build();

    @Test
    void randomMixesOfChunkWritesKernelsAndReadsGiveTheReferenceValues() {
        int dirty = 0;
        int evictions = 0;
        for (int seed = 0; seed < 24; seed++) {
            int[] seen = run(seed, seed % 3 + 2, seed % 2 == 0 ? 0 : 5L * N * 2);
            dirty += seen[0];
            evictions += seen[1];
        }
        assertTrue(dirty > 100, "host writes left dirty chunks " + dirty + " times");
        assertTrue(evictions > 10, evictions + " evictions");
    }

    @Test
    void anElementWriteToAnArrayTooLargeForTheHostLandsInADeviceReplica() {
        int n = (16 << 20) / 4 + PER_CHUNK;
        try (EmulatedBackend backend = EmulatedBackend.builder().devices(2)
                .topology(BandwidthMatrixLoader.preset("v100x8")).model(DeviceModel.V100).build();
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("round-robin"))) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, n);
            ctx.launch(inc, Fixtures.launch(), x, n);
            ctx.write(x, 5, 42f);
            ctx.write(x, n - 1, 7f);
            assertEquals(42f, (Float) ctx.read(x, 5));
            assertEquals(null, x.hostReplica(), "the host never held the array");
            ctx.launch(inc, Fixtures.launch(), x, n);
            assertEquals(43f, (Float) ctx.read(x, 5));
            assertEquals(2f, (Float) ctx.read(x, 6));
            assertEquals(8f, (Float) ctx.read(x, n - 1));
        }
    }

    /**
     * @param memory each device's memory in bytes, or 0 for the model's
     * @return how many host writes left the host with dirty chunks, and how many replicas were evicted
     */
    private static int[] run(int seed, int devices, long memory) {
        DeviceModel model = memory == 0 ? DeviceModel.V100 : DeviceModel.V100.withTotalMemory(memory);
        String where = "seed " + seed + ", " + devices + " devices" + (memory == 0 ? "" : ", " + memory + " bytes");
        Random random = new Random(seed);
        try (EmulatedBackend backend = EmulatedBackend.builder().devices(devices)
                .topology(BandwidthMatrixLoader.preset("v100x8")).model(model).build();
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("round-robin"));
             Arena arena = Arena.ofConfined()) {
            Kernel inc = Fixtures.inc(ctx);
            Kernel scale = Fixtures.scale(ctx);
            Kernel incRange = ctx.kernel("inc_range", RANGE, List.of(
                    Parameter.pointer("x", ElementType.FLOAT, Access.READ_WRITE),
                    Parameter.scalar("from", ElementType.INT), Parameter.scalar("count", ElementType.INT)));
            DeviceArray[] arrays = new DeviceArray[3];
            float[][] expected = new float[3][N];
            MemorySegment buffer = arena.allocate(4L * N);
            for (int a = 0; a < 3; a++) {
                arrays[a] = ctx.newArray(ElementType.FLOAT, N);
                for (int i = 0; i < N; i++) {
                    expected[a][i] = a * 100_000 + i;
                    buffer.setAtIndex(Fixtures.F, i, expected[a][i]);
                }
                ctx.copyFromHost(arrays[a], buffer);
            }
            int dirty = 0;
            for (int op = 0; op < OPERATIONS; op++) {
                int a = random.nextInt(3);
                DeviceArray x = arrays[a];
                float[] e = expected[a];
                String at = where + ", operation " + op;
                switch (random.nextInt(8)) {
                    case 0 -> {
                        ctx.launch(inc, Fixtures.launch(), x, N);
                        for (int i = 0; i < N; i++) {
                            e[i]++;
                        }
                    }
                    case 1 -> {
                        int from = random.nextInt(N);
                        int count = Math.min(N - from, random.nextInt(2 * PER_CHUNK));
                        ctx.launch(incRange, Fixtures.launch(), x, from, count);
                        for (int i = from; i < from + count; i++) {
                            e[i]++;
                        }
                    }
                    case 2, 3 -> {
                        int i = random.nextInt(N);
                        e[i] = -random.nextInt(1000);
                        ctx.write(x, i, e[i]);
                        dirty += x.coherence().hasHostDirty() ? 1 : 0;
                    }
                    case 4 -> {
                        int from = random.nextInt(N);
                        int count = 1 + random.nextInt(Math.min(N - from, 3 * PER_CHUNK));
                        MemorySegment src = arena.allocate(4L * count);
                        for (int i = 0; i < count; i++) {
                            e[from + i] = random.nextInt(1000) + 0.5f;
                            src.setAtIndex(Fixtures.F, i, e[from + i]);
                        }
                        ctx.copyFromHost(x, 4L * from, src);
                        dirty += x.coherence().hasHostDirty() ? 1 : 0;
                    }
                    case 5 -> {
                        int i = random.nextInt(N);
                        assertEquals(e[i], (Float) ctx.read(x, i), at + ": element " + i);
                    }
                    case 6 -> {
                        int b = (a + 1 + random.nextInt(2)) % 3;
                        ctx.launch(scale, Fixtures.launch(), x, arrays[b], N, 2f);
                        for (int i = 0; i < N; i++) {
                            expected[b][i] = 2 * e[i];
                        }
                    }
                    default -> {
                        int b = (a + 1 + random.nextInt(2)) % 3;
                        ctx.copy(x, arrays[b]);
                        System.arraycopy(e, 0, expected[b], 0, N);
                    }
                }
            }
            for (int a = 0; a < 3; a++) {
                ctx.copyToHost(arrays[a], buffer);
                for (int i = 0; i < N; i++) {
                    assertEquals(expected[a][i], buffer.getAtIndex(Fixtures.F, i), where + ": array " + a + "[" + i
                            + "] at the end");
                }
            }
            return new int[] {dirty, ctx.evictions().size()};
        }
    }
}
