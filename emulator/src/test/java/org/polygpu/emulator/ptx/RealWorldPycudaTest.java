package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.Dim3;
import org.polygpu.emulator.ptx.RealWorldCorpus.Compiled;
import org.polygpu.emulator.ptx.RealWorldCorpus.Kernel;

/**
 * pycuda's example kernels ({@link RealWorldCorpus}: pycuda 2026.1's {@code examples/}, unmodified, their
 * {@code #include <stdio.h>} and {@code printf} included), compiled for the emulated V100 as pycuda's
 * {@code SourceModule} compiles them and launched with the examples' own block shapes, against Java references.
 * Where an example writes its source as a Python template, it is filled as the example fills it. Skipped without
 * NVRTC or the corpus.
 */
class RealWorldPycudaTest {
    private static final String V100 = "compute_70";

    /** {@code examples/hello_gpu.py}: one block of 400 threads multiplies two vectors. */
    @Test
    void helloGpuMultipliesElementwise() {
        Kernel k = RealWorldCorpus.kernel("multiply_them");
        Compiled c = k.compile(V100);
        Random random = new Random(21);
        float[] a = new float[400];
        float[] b = new float[400];
        float[] expected = new float[400];
        for (int i = 0; i < 400; i++) {
            a[i] = (float) random.nextGaussian();
            b[i] = (float) random.nextGaussian();
            expected[i] = a[i] * b[i];
        }
        try (TestDevice d = new TestDevice()) {
            long dest = d.allocate(4L * 400);
            d.launch(c.module(), c.symbol("multiply_them"), 1, 400, dest, d.floats(a), d.floats(b));
            assertArrayEquals(expected, d.floatsAt(dest, 400), k.origin());
        }
    }

    /** {@code examples/from-wiki/using_printf.py}: a 4 × 4 block prints each thread's coordinates. */
    @Test
    void usingPrintfPrintsEveryThread() {
        Kernel k = RealWorldCorpus.kernel("say_hi");
        Compiled c = k.compile(V100);
        StringBuilder expected = new StringBuilder();
        for (int t = 0; t < 16; t++) {
            expected.append("I am ").append(t % 4).append('.').append(t / 4).append('\n');
        }
        try (TestDevice d = new TestDevice()) {
            d.launch(c.module(), c.symbol("say_hi"), new Dim3(1, 1, 1), new Dim3(4, 4, 1), 0);
            assertEquals(expected.toString(), d.printed.toString(), k.origin());
        }
    }

    /** {@code examples/from-wiki/game_of_life.py}: one step of B3/S23 on a torus, in 16 × 16 blocks. */
    @Test
    void gameOfLifeStepFollowsB3S23OnATorus() {
        Kernel k = RealWorldCorpus.kernel("game_of_life");
        Compiled c = k.compile(V100);
        int n = 64;
        Random random = new Random(22);
        int[] cells = new int[n * n];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = random.nextInt(2);
        }
        int[] expected = new int[n * n];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                int count = -cells[j * n + i];
                for (int dj = -1; dj <= 1; dj++) {
                    for (int di = -1; di <= 1; di++) {
                        count += cells[Math.floorMod(j + dj, n) * n + Math.floorMod(i + di, n)];
                    }
                }
                expected[j * n + i] = count == 3 ? 1 : count == 2 ? cells[j * n + i] : 0;
            }
        }
        try (TestDevice d = new TestDevice()) {
            long next = d.ints(new int[n * n]);
            d.launch(c.module(), c.symbol("step"), new Dim3(n / 16, n / 16, 1), new Dim3(16, 16, 1), 0,
                    d.ints(cells), next);
            assertArrayEquals(expected, d.intsAt(next, n * n), k.origin());
        }
    }

    /** {@code examples/from-wiki/simple_rgb2gray.py}: luma of a 256 × 256 image, in double as the source writes. */
    @Test
    void rgbToGrayWeighsTheChannelsInDouble() {
        Kernel k = RealWorldCorpus.kernel("rgb2gray");
        Compiled c = k.compile(V100);
        int n = 256 * 256;
        Random random = new Random(23);
        float[][] channels = new float[3][n];
        for (float[] channel : channels) {
            for (int i = 0; i < n; i++) {
                channel[i] = random.nextInt(256);
            }
        }
        try (TestDevice d = new TestDevice()) {
            long dest = d.allocate(4L * n);
            d.launch(c.module(), c.symbol("rgb2gray"), 64, 1024, dest, d.floats(channels[0]), d.floats(channels[1]),
                    d.floats(channels[2]));
            float[] got = d.floatsAt(dest, n);
            for (int i = 0; i < n; i++) {
                double gray = 0.299 * channels[0][i] + 0.587 * channels[1][i] + 0.114 * channels[2][i];
                assertEquals((float) gray, got[i], Math.ulp((float) gray), k.origin() + ", pixel " + i);
            }
        }
    }

    /**
     * {@code examples/from-wiki/matrix_transpose.py}: its two transposes through a padded shared tile, one element
     * and four elements per thread, with the example's block size 16, on a matrix that is not square.
     */
    @Test
    void matrixTransposeKernelsTransposeExactly() {
        Kernel small = RealWorldCorpus.kernel("transpose");
        Kernel big = RealWorldCorpus.kernel("transpose_big_block");
        Map<String, Integer> fill = Map.of("block_size", 16);
        Compiled one = small.compile(V100, PythonStrings.format(small.source(), fill));
        Compiled four = big.compile(V100, PythonStrings.format(big.source(), fill));
        int width = 96;
        int height = 64;
        Random random = new Random(24);
        float[] a = new float[width * height];
        float[] expected = new float[width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                a[y * width + x] = random.nextFloat();
                expected[x * height + y] = a[y * width + x];
            }
        }
        try (TestDevice d = new TestDevice()) {
            long in = d.floats(a);
            long out = d.allocate(4L * a.length);
            d.launch(one.module(), one.symbol("transpose"), new Dim3(width / 16, height / 16, 1), new Dim3(16, 16, 1),
                    0, out, in, width, height);
            assertArrayEquals(expected, d.floatsAt(out, a.length), small.origin());
            long out2 = d.allocate(4L * a.length);
            d.launch(four.module(), four.symbol("transpose"), new Dim3(width / 32, height / 32, 1),
                    new Dim3(16, 16, 1), 0, in, out2, width, height);
            assertArrayEquals(expected, d.floatsAt(out2, a.length), big.origin());
        }
    }

    /** {@code examples/from-wiki/matrixmul_tiled.py}: C = A B with shared tiles, the sizes filled in the template. */
    @Test
    void tiledMatrixMultiplicationIsBitExact() {
        Kernel k = RealWorldCorpus.kernel("matrixmul_tiled");
        int size = 48;
        int tile = 16;
        Compiled c = k.compile(V100, PythonStrings.format(k.source(), Map.of("MATRIX_SIZE", size, "BLOCK_SIZE",
                tile)));
        Random random = new Random(25);
        float[] a = new float[size * size];
        float[] b = new float[size * size];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) random.nextGaussian();
            b[i] = (float) random.nextGaussian();
        }
        float[] expected = new float[size * size];
        for (int r = 0; r < size; r++) {
            for (int col = 0; col < size; col++) {
                float s = 0;
                for (int j = 0; j < size; j++) {
                    s = Math.fma(a[r * size + j], b[j * size + col], s);
                }
                expected[r * size + col] = s;
            }
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * a.length);
            d.launch(c.module(), c.symbol("MatrixMulKernel"), new Dim3(size / tile, size / tile, 1),
                    new Dim3(tile, tile, 1), 0, d.floats(a), d.floats(b), out);
            assertArrayEquals(expected, d.floatsAt(out, a.length), k.origin());
        }
    }
}
