package org.polygpu.gpu;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Assumptions;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.StreamHandle;
import org.polygpu.cuda.CuResult;
import org.polygpu.cuda.CudaBackend;
import org.polygpu.cuda.CudaException;

/**
 * Kernels of the PTX issue's corpus on a real GPU, compiled by NVRTC to a CUBIN for the device, against the Java
 * references of the corpus README (bit-exact where it says so); one fixture also loads as PTX through the driver's
 * JIT. Skipped without a GPU or NVRTC.
 */
@Tag("gpu")
class CudaCorpusGpuTest {
    private CudaBackend gpu;
    private StreamHandle stream;

    @BeforeEach
    void open() {
        Gpu.assumeNvrtc();
        gpu = Gpu.open(1);
        stream = gpu.createStream(0);
    }

    @AfterEach
    void close() {
        if (gpu != null) {
            gpu.close();
        }
    }

    private FunctionHandle kernel(ModuleImage image, String name) {
        ModuleHandle module = gpu.loadModule(0, image);
        return gpu.function(module, name);
    }

    private void run(FunctionHandle f, LaunchConfig config, Object... args) {
        gpu.launch(f, config, args, stream, Gpu.LABEL);
        gpu.synchronizeAll();
    }

    private DeviceBuffer floats(float[] values) {
        return Gpu.upload(gpu, 0, MemorySegment.ofArray(values));
    }

    private float[] floatsOf(DeviceBuffer d) {
        return Gpu.download(gpu, d).toArray(JAVA_FLOAT);
    }

    @Test
    void vectorSquaresAreExactAndTheirReducedDifferenceToo() {
        int n = 10_000;
        float[] x = new float[n];
        float[] y = new float[n];
        double expected = 0;
        for (int i = 0; i < n; i++) {
            x[i] = (i % 16) / 4f;
            y[i] = (i % 8) / 4f;
            expected += (double) x[i] * x[i] - (double) y[i] * y[i];
        }
        ModuleImage.CudaSource source = Gpu.source("vector_squares.cu");
        FunctionHandle square = kernel(source, "square");
        FunctionHandle reduce = kernel(source, "reduce_diff");
        DeviceBuffer dx = floats(x);
        DeviceBuffer dy = floats(y);
        DeviceBuffer x2 = gpu.allocate(0, 4L * n);
        DeviceBuffer y2 = gpu.allocate(0, 4L * n);
        DeviceBuffer z = gpu.allocate(0, 4);
        run(square, LaunchConfig.of(16, 256), dx, x2, n);
        run(square, LaunchConfig.of(16, 256), dy, y2, n);
        run(reduce, LaunchConfig.of(16, 256), x2, y2, z, n);
        float[] squares = floatsOf(x2);
        for (int i = 0; i < n; i++) {
            assertEquals(x[i] * x[i], squares[i], "x2[" + i + "]");
        }
        assertEquals((float) expected, floatsOf(z)[0]);
    }

    @Test
    void tiledMatmulWithDynamicSharedMemoryIsBitExact() {
        int m = 37;
        int n = 45;
        int k = 29;
        int t = 16;
        Random random = new Random(42);
        float[] a = new float[m * k];
        float[] b = new float[k * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = random.nextFloat() - 0.5f;
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = random.nextFloat() - 0.5f;
        }
        DeviceBuffer c = gpu.allocate(0, 4L * m * n);
        run(kernel(Gpu.source("tiled_matmul.cu"), "matmul_tiled"),
                new LaunchConfig(new Dim3((n + t - 1) / t, (m + t - 1) / t, 1), new Dim3(t, t, 1), 2 * t * t * 4),
                floats(a), floats(b), c, m, n, k);
        float[] got = floatsOf(c);
        for (int r = 0; r < m; r++) {
            for (int col = 0; col < n; col++) {
                float s = 0;
                for (int j = 0; j < k; j++) {
                    s = Math.fma(a[r * k + j], b[j * n + col], s);
                }
                assertEquals(s, got[r * n + col], "c[" + r + "][" + col + "]");
            }
        }
    }

    @Test
    void aTemplateInstanceIsFoundByItsNameExpression() {
        int n = 1000;
        double[] data = new double[n];
        for (int i = 0; i < n; i++) {
            data[i] = i * 0.5;
        }
        DeviceBuffer d = Gpu.upload(gpu, 0, MemorySegment.ofArray(data));
        run(kernel(Gpu.source("templated.cu", "inc_kernel<double>"), "inc_kernel<double>"), LaunchConfig.of(8, 128),
                d, 0.25, n);
        double[] got = Gpu.download(gpu, d).toArray(JAVA_DOUBLE);
        for (int i = 0; i < n; i++) {
            assertEquals(i * 0.5 + 0.25, got[i], "data[" + i + "]");
        }
    }

    @Test
    void axpyTakesItsScalarFirst() {
        int n = 5000;
        float[] x = new float[n];
        float[] y = new float[n];
        Random random = new Random(7);
        for (int i = 0; i < n; i++) {
            x[i] = random.nextFloat();
            y[i] = random.nextFloat();
        }
        DeviceBuffer out = gpu.allocate(0, 4L * n);
        run(kernel(Gpu.source("conjugate_gradient.cu"), "axpy"), LaunchConfig.of(20, 256), 1.5f, floats(x),
                floats(y), out, n);
        float[] got = floatsOf(out);
        for (int i = 0; i < n; i++) {
            assertEquals(Math.fma(1.5f, x[i], y[i]), got[i], "out[" + i + "]");
        }
    }

    @Test
    void histogramOfBytesCountsExactly() {
        int n = 100_000;
        byte[] data = new byte[n];
        new Random(3).nextBytes(data);
        int[] expected = new int[256];
        for (byte v : data) {
            expected[v & 0xff]++;
        }
        DeviceBuffer bins = gpu.allocate(0, 256 * 4);
        run(kernel(Gpu.source("histogram.cu"), "histogram256"), LaunchConfig.of(64, 256),
                Gpu.upload(gpu, 0, MemorySegment.ofArray(data)), n, bins);
        assertArrayEquals(expected, Gpu.download(gpu, bins).toArray(JAVA_INT));
    }

    @Test
    void aDeviceFunctionReadingConstantMemoryIsBitExact() {
        int n = 2000;
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = -1 + 2f * i / n;
        }
        float[] c = {1f, 1f, 0.5f, 1f / 6f, 1f / 24f, 1f / 120f, 1f / 720f, 1f / 5040f};
        DeviceBuffer y = gpu.allocate(0, 4L * n);
        run(kernel(Gpu.source("device_helper.cu"), "poly_eval"), LaunchConfig.of(8, 256), floats(x), y, n, 7);
        float[] got = floatsOf(y);
        for (int i = 0; i < n; i++) {
            float r = c[7];
            for (int d = 6; d >= 0; d--) {
                r = Math.fma(r, x[i], c[d]);
            }
            assertEquals(r, got[i], "y[" + i + "]");
        }
    }

    @Test
    void theCommittedPtxFixtureLoadsThroughTheJitAndAgreesWithTheCubin() {
        FunctionHandle square;
        try {
            square = kernel(Gpu.ptxFixture("vector_squares"), "square");
        } catch (CudaException e) {
            // A driver older than the NVRTC that wrote the fixture must say so clearly; that is all we can check.
            assertEquals(CuResult.CUDA_ERROR_UNSUPPORTED_PTX_VERSION, e.result().orElseThrow(), e.getMessage());
            assertTrue(e.getMessage().contains("newer than this CUDA driver"), e.getMessage());
            Assumptions.abort("the driver is older than the PTX fixture: " + e.getMessage());
            return;
        }
        float[] x = {0.5f, -3f, 1e-3f, 7f};
        DeviceBuffer y = gpu.allocate(0, 16);
        run(square, LaunchConfig.of(1, 32), floats(x), y, x.length);
        assertArrayEquals(new float[] {0.25f, 9f, 1e-3f * 1e-3f, 49f}, floatsOf(y));
    }
}
