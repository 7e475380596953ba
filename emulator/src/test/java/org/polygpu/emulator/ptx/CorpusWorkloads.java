package org.polygpu.emulator.ptx;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.polygpu.backend.Dim3;

/**
 * Benchmark-sized launches of the corpus's classic kernels (reduction, scan, histogram, transpose, tiled matrix
 * multiply, bitonic sort, n-body) on a {@link TestDevice}, for {@link InterpreterThroughput}. Each workload is one
 * algorithm run to completion (all the launches it takes), repeatable on the same buffers.
 */
final class CorpusWorkloads {
    /** A named, repeatable run that reports what the interpreter executed. */
    record Workload(String name, Supplier<KernelCounters> run) {
    }

    private CorpusWorkloads() {
    }

    /** The workloads, their buffers allocated on {@code d}; sizes give each run tens of M thread-instructions. */
    static List<Workload> on(TestDevice d) {
        return List.of(reduction(d), scan(d), histogram(d), transpose(d), matmul(d), bitonic(d), nbody(d));
    }

    private static Workload reduction(TestDevice d) {
        int n = 1 << 22;
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (i % 37 - 18) / 4f;
        }
        PtxModule m = CorpusTest.corpus("reduction");
        long in = d.floats(x);
        int blocks = 256;
        long partial = d.allocate(4L * blocks);
        long sum = d.allocate(4);
        return new Workload("reduction", () -> d.launch(m, "reduce_sum", dim(blocks), dim(256), 4 * 256, in,
                partial, n).plus(d.launch(m, "reduce_sum", dim(1), dim(256), 4 * 256, partial, sum, blocks)));
    }

    private static Workload scan(TestDevice d) {
        int n = 1 << 20;
        int block = 512;
        int blocks = n / (2 * block);
        int[] values = new Random(1).ints(n, 0, 100).toArray();
        PtxModule m = CorpusTest.corpus("scan");
        long in = d.ints(values);
        long out = d.allocate(4L * n);
        long sums = d.allocate(4L * blocks);
        long offsets = d.allocate(4L * blocks);
        return new Workload("scan", () -> d.launch(m, "scan_blocks", dim(blocks), dim(block), 8 * block, in, out,
                sums, n).plus(d.launch(m, "scan_blocks", dim(1), dim(block), 8 * block, sums, offsets, 0L, blocks))
                .plus(d.launch(m, "add_block_offsets", blocks, block, out, offsets, n)));
    }

    private static Workload histogram(TestDevice d) {
        int n = 1 << 22;
        byte[] data = new byte[n];
        new Random(2).nextBytes(data);
        long in = d.allocate(n);
        MemorySegment.copy(data, 0, d.segment(in), ValueLayout.JAVA_BYTE, 0, n);
        long bins = d.ints(new int[256]);
        PtxModule m = CorpusTest.corpus("histogram");
        return new Workload("histogram", () -> d.launch(m, "histogram256", 64, 256, in, n, bins));
    }

    private static Workload transpose(TestDevice d) {
        int side = 2048;
        long in = d.floats(new float[side * side]);
        long out = d.allocate(4L * side * side);
        PtxModule m = CorpusTest.corpus("transpose");
        return new Workload("transpose", () -> d.launch(m, "transpose", new Dim3(side / 32, side / 32, 1),
                new Dim3(32, 8, 1), 0, in, out, side, side));
    }

    private static Workload matmul(TestDevice d) {
        int side = 256;
        float[] values = new float[side * side];
        Random random = new Random(3);
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextFloat();
        }
        long a = d.floats(values);
        long b = d.floats(values);
        long c = d.allocate(4L * side * side);
        PtxModule m = CorpusTest.corpus("tiled_matmul");
        return new Workload("matrixMul", () -> d.launch(m, "matmul_tiled", new Dim3(side / 16, side / 16, 1),
                new Dim3(16, 16, 1), 2048, a, b, c, side, side, side));
    }

    private static Workload bitonic(TestDevice d) {
        int n = 1 << 18;
        int[] keys = new Random(4).ints(n).toArray();
        long k = d.ints(keys);
        PtxModule m = CorpusTest.corpus("bitonic_sort");
        return new Workload("bitonic sort", () -> {
            MemorySegment.copy(keys, 0, d.segment(k), ValueLayout.JAVA_INT, 0, n);
            return d.launch(m, "bitonic_sort_shared", dim(n / 1024), dim(512), 4096, k, n);
        });
    }

    private static Workload nbody(TestDevice d) {
        int n = 2048;
        float[] pos = new float[4 * n];
        Random random = new Random(5);
        for (int i = 0; i < pos.length; i++) {
            pos[i] = i % 4 == 3 ? 0.5f + random.nextFloat() : 2 * random.nextFloat() - 1;
        }
        long p = d.floats(pos);
        long acc = d.allocate(16L * n);
        PtxModule m = CorpusTest.corpus("nbody");
        return new Workload("n-body", () -> d.launch(m, "nbody_accel", n / 256, 256, p, acc, n, 0.01f));
    }

    private static Dim3 dim(int x) {
        return new Dim3(x, 1, 1);
    }
}
