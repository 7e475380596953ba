package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.emulator.ptx.RealWorldCooperativeGroupsTest.CHANNELS;
import static org.polygpu.emulator.ptx.RealWorldCooperativeGroupsTest.POINTS;
import static org.polygpu.emulator.ptx.RealWorldCooperativeGroupsTest.TAPS;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.ptx.RealWorldCorpus.Kernel;
import org.polygpu.topology.BandwidthMatrix;

/**
 * Real-world kernels as a polygpu program runs them: the unmodified source given to the emulated backend of each
 * device model, which compiles it for the model's own architecture, launched on a stream, its {@code printf} output
 * on the backend's device output. Skipped without NVRTC or the corpus.
 */
class RealWorldBackendTest {
    private static final BandwidthMatrix ONE_GPU = new BandwidthMatrix(new double[][] {{0, 12}, {12, 0}});
    private static final OperationLabel L = OperationLabel.NONE;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"V100", "A100", "H100"})
    void channelizerAndPrintfRunOnEachDeviceModel(String model) {
        Kernel channelizer = RealWorldCorpus.kernel("channelizer");
        Kernel sayHi = RealWorldCorpus.kernel("say_hi");
        CudaCompiler.ptx("__global__ void probe() {}", "compute_70"); // skips without NVRTC
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (EmulatedBackend b = EmulatedBackend.builder().topology(ONE_GPU).model(DeviceModel.preset(model))
                .hostApiNanos(0).parallelism(2).deviceOutput(new PrintStream(printed, true, StandardCharsets.UTF_8))
                .build()) {
            StreamHandle s = b.createStream(0);
            ModuleHandle m = b.loadModule(0, new ModuleImage.CudaSource(channelizer.program(channelizer.source()),
                    channelizer.programName(), channelizer.options(), channelizer.entries()));
            Random random = new Random(32);
            float[] x = RealWorldCooperativeGroupsTest.floats(RealWorldCooperativeGroupsTest.quarters(random,
                    POINTS * CHANNELS));
            float[] h = RealWorldCooperativeGroupsTest.floats(RealWorldCooperativeGroupsTest.quarters(random,
                    TAPS * CHANNELS));
            DeviceBuffer dx = upload(b, s, x);
            DeviceBuffer dh = upload(b, s, h);
            DeviceBuffer dy = b.allocate(0, 8L * POINTS * CHANNELS);
            b.launch(b.function(m, "_cupy_channelizer_8x8<float,thrust::complex<float>>"), new LaunchConfig(
                    new Dim3((CHANNELS + 7) / 8, 16, 1), new Dim3(8, 8, 1), 0), new Object[] {CHANNELS, TAPS, POINTS,
                        dx, dh, dy}, s, L);
            float[] y = new float[2 * POINTS * CHANNELS];
            b.copyDeviceToHost(dy, MemorySegment.ofArray(y), 4L * y.length, s, L);
            b.synchronizeAll();
            double[] xd = new double[x.length];
            double[] hd = new double[h.length];
            for (int i = 0; i < x.length; i++) {
                xd[i] = x[i];
            }
            for (int i = 0; i < h.length; i++) {
                hd[i] = h[i];
            }
            assertArrayEquals(RealWorldCooperativeGroupsTest.floats(RealWorldCooperativeGroupsTest.reference(xd, null,
                    hd, null)), y, channelizer.origin() + " on " + model);

            ModuleHandle hi = b.loadModule(0, new ModuleImage.CudaSource(sayHi.program(sayHi.source()),
                    sayHi.programName(), sayHi.options(), sayHi.entries()));
            b.launch(b.function(hi, "say_hi"), new LaunchConfig(new Dim3(1, 1, 1), new Dim3(4, 4, 1), 0),
                    new Object[0], s, L);
            b.synchronizeAll();
            StringBuilder expected = new StringBuilder();
            for (int t = 0; t < 16; t++) {
                expected.append("I am ").append(t % 4).append('.').append(t / 4).append(System.lineSeparator());
            }
            assertEquals(expected.toString(), printed.toString(StandardCharsets.UTF_8), sayHi.origin() + " on "
                    + model);
        }
    }

    private static DeviceBuffer upload(EmulatedBackend b, StreamHandle s, float[] values) {
        DeviceBuffer d = b.allocate(0, 4L * values.length);
        b.copyHostToDevice(MemorySegment.ofArray(values), d, 4L * values.length, s, L);
        return d;
    }
}
