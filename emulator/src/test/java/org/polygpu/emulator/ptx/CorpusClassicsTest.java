package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.emulator.ptx.CorpusTest.corpus;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.Dim3;

/**
 * The corpus's classic shared-memory kernels (two-level reduction, multi-block Blelloch scan, padded-tile transpose,
 * shared-memory bitonic sort, tiled n-body) run on the interpreter and compared with Java references, as in
 * {@link CorpusTest}.
 */
class CorpusClassicsTest {
    @Test
    void twoLevelReductionSumsExactly() {
        int n = 100_003;
        float[] x = new float[n];
        float expected = 0;
        for (int i = 0; i < n; i++) {
            x[i] = (i % 37 - 18) / 4f;
            expected += x[i];
        }
        PtxModule m = corpus("reduction");
        try (TestDevice d = new TestDevice()) {
            int blocks = 40;
            long partial = d.allocate(4L * blocks);
            long sum = d.allocate(4);
            d.launch(m, "reduce_sum", dim(blocks), dim(512), 4 * 512, d.floats(x), partial, n);
            d.launch(m, "reduce_sum", dim(1), dim(64), 4 * 64, partial, sum, blocks);
            assertEquals(expected, d.floatsAt(sum, 1)[0]);
        }
    }

    @Test
    void blellochScanOverManyBlocksIsAnExclusivePrefixSum() {
        int n = 10_000;
        int block = 128;
        int blocks = (n + 2 * block - 1) / (2 * block);
        Random random = new Random(6);
        int[] in = new int[n];
        int[] expected = new int[n];
        for (int i = 0; i < n; i++) {
            in[i] = random.nextInt(100);
            expected[i] = i == 0 ? 0 : expected[i - 1] + in[i - 1];
        }
        PtxModule m = corpus("scan");
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * n);
            long sums = d.allocate(4L * blocks);
            long offsets = d.allocate(4L * blocks);
            d.launch(m, "scan_blocks", dim(blocks), dim(block), 8 * block, d.ints(in), out, sums, n);
            d.launch(m, "scan_blocks", dim(1), dim(block), 8 * block, sums, offsets, 0L, blocks);
            d.launch(m, "add_block_offsets", blocks, block, out, offsets, n);
            assertArrayEquals(expected, d.intsAt(out, n));
        }
    }

    @Test
    void paddedTileTransposeIsExact() {
        int width = 70;
        int height = 45;
        Random random = new Random(7);
        float[] in = new float[width * height];
        float[] expected = new float[width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                in[y * width + x] = random.nextFloat();
                expected[x * height + y] = in[y * width + x];
            }
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * in.length);
            d.launch(corpus("transpose"), "transpose", new Dim3(3, 2, 1), new Dim3(32, 8, 1), 0, d.floats(in), out,
                    width, height);
            assertArrayEquals(expected, d.floatsAt(out, in.length));
        }
    }

    @Test
    void bitonicSortSortsEverySegmentAsUnsigned() {
        int n = 1000;
        int block = 128;
        int segment = 2 * block;
        Random random = new Random(8);
        int[] keys = new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i % 7 == 0 ? random.nextInt(4) : random.nextInt();
        }
        int[] expected = keys.clone();
        for (int start = 0; start < n; start += segment) {
            int end = Math.min(n, start + segment);
            Integer[] part = Arrays.stream(expected, start, end).boxed().toArray(Integer[]::new);
            Arrays.sort(part, Integer::compareUnsigned);
            for (int i = start; i < end; i++) {
                expected[i] = part[i - start];
            }
        }
        try (TestDevice d = new TestDevice()) {
            long k = d.ints(keys);
            d.launch(corpus("bitonic_sort"), "bitonic_sort_shared", dim((n + segment - 1) / segment), dim(block),
                    4 * segment, k, n);
            assertArrayEquals(expected, d.intsAt(k, n));
        }
    }

    @Test
    void nbodyAccelerationsMatchADoubleReference() {
        int n = 300;
        float softening2 = 0.01f;
        Random random = new Random(9);
        float[] pos = new float[4 * n];
        for (int i = 0; i < n; i++) {
            pos[4 * i] = 2 * random.nextFloat() - 1;
            pos[4 * i + 1] = 2 * random.nextFloat() - 1;
            pos[4 * i + 2] = 2 * random.nextFloat() - 1;
            pos[4 * i + 3] = 0.5f + random.nextFloat();
        }
        try (TestDevice d = new TestDevice()) {
            long acc = d.allocate(16L * n);
            d.launch(corpus("nbody"), "nbody_accel", (n + 127) / 128, 128, d.floats(pos), acc, n, softening2);
            float[] got = d.floatsAt(acc, 4 * n);
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < 3; c++) {
                    double sum = 0;
                    double scale = 0;
                    for (int j = 0; j < n; j++) {
                        double rx = pos[4 * j] - pos[4 * i];
                        double ry = pos[4 * j + 1] - pos[4 * i + 1];
                        double rz = pos[4 * j + 2] - pos[4 * i + 2];
                        double inv = 1 / Math.sqrt(rx * rx + ry * ry + rz * rz + softening2);
                        double term = (c == 0 ? rx : c == 1 ? ry : rz) * pos[4 * j + 3] * inv * inv * inv;
                        sum += term;
                        scale += Math.abs(term);
                    }
                    assertEquals(sum, got[4 * i + c], 1e-5 * scale, "body " + i + " component " + c);
                }
                assertEquals(0f, got[4 * i + 3]);
            }
        }
    }

    private static Dim3 dim(int x) {
        return new Dim3(x, 1, 1);
    }
}
