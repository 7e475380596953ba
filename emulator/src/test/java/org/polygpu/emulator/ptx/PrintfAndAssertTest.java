package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.topology.BandwidthMatrix;

/**
 * {@code printf} and {@code assert} in CUDA source on the emulated backend: the output reaches the builder's device
 * output when the kernel completes, in block order; a failed assertion fails that launch like a memcheck error,
 * naming kernel, block, thread, the condition, file, line and function; neither stops the module from loading.
 * Skipped without NVRTC.
 */
class PrintfAndAssertTest {
    private static final BandwidthMatrix TWO_GPUS = new BandwidthMatrix(new double[][] {
        {0, 24, 12}, {24, 0, 12}, {12, 12, 0}});
    private static final OperationLabel L = OperationLabel.NONE;
    private static final String SOURCE = """
            extern "C" __global__ void report(const int *in, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    printf("block %d thread %d: %5.2f %s %c %lld %x|%-4u|%e %g\\n", blockIdx.x, threadIdx.x,
                           in[i] * 0.5f, "ok", 'A' + i, (long long) in[i] << 33, in[i], i, 1.5, 0.0001);
                }
                assert(in[i] >= 0);
            }

            extern "C" __global__ void quiet(int *out) {
                out[threadIdx.x] = threadIdx.x;
                if (out[threadIdx.x] < 0) printf("never\\n");
            }
            """;

    private static String line(int block, int thread, int i, int v) {
        return String.format("block %d thread %d: %5.2f ok %c %d %x|%-4d|1.500000e+00 0.0001%n", block, thread,
                v * 0.5, (char) ('A' + i), (long) v << 33, v, i);
    }

    @Test
    void printfOutputAppearsAtCompletionAndAFailedAssertFailsOnlyItsLaunch() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (EmulatedBackend b = EmulatedBackend.builder().topology(TWO_GPUS).hostApiNanos(0).parallelism(2)
                .deviceOutput(out).build()) {
            CudaCompiler.ptx("__global__ void probe() {}", "compute_70"); // skips without NVRTC
            ModuleHandle module = b.loadModule(0, new ModuleImage.CudaSource(SOURCE, "report.cu", List.of(),
                    List.of()));
            FunctionHandle report = b.function(module, "report");
            int[] values = {3, 10, 7, 1, 4, 5, 8, 2};
            DeviceBuffer in = b.allocate(0, 32);
            StreamHandle s = b.createStream(0);
            b.copyHostToDevice(MemorySegment.ofArray(values), in, 32, s, L);
            b.launch(report, LaunchConfig.of(2, 4), new Object[] {in, 7}, s, L);
            assertEquals("", bytes.toString(StandardCharsets.UTF_8), "nothing is printed before completion");
            b.synchronizeAll();
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < 7; i++) {
                expected.append(line(i / 4, i % 4, i, values[i]));
            }
            assertEquals(expected.toString(), bytes.toString(StandardCharsets.UTF_8).replace("\n",
                    System.lineSeparator()));

            bytes.reset();
            values[2] = -7;
            b.copyHostToDevice(MemorySegment.ofArray(values), in, 32, s, L);
            b.launch(report, LaunchConfig.of(1, 8), new Object[] {in, 2}, s, L);
            BackendException e = assertThrows(BackendException.class, b::synchronizeAll);
            assertTrue(e.getMessage().startsWith("assert: kernel 'report' block (0, 0, 0) thread (2, 0, 0): "
                    + "assertion `in[i] >= 0` failed at report.cu:7 in function 'void report(const int *, int)' "
                    + "(PTX line "),
                    e.getMessage());
            assertEquals(line(0, 0, 0, 3) + line(0, 1, 1, 10), bytes.toString(StandardCharsets.UTF_8)
                    .replace("\n", System.lineSeparator()), "what ran before the assertion is printed");

            DeviceBuffer o = b.allocate(0, 128);
            b.launch(b.function(module, "quiet"), LaunchConfig.of(1, 32), new Object[] {o}, s, L);
            b.synchronizeAll();
            MemorySegment back = MemorySegment.ofArray(new int[32]);
            b.copyDeviceToHost(o, back, 128, s, L);
            b.synchronizeAll();
            assertEquals(31, back.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 31), "the module still runs");
        }
    }
}
