package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.EmulatedExecution;
import org.polygpu.nvrtc.NvrtcLibrary;

/** {@code EmulatedExecution=sampled}: a sample of each grid runs, timed as the whole grid; its outputs stay put. */
class SampledExecutionTest {
    private static final ModuleImage.CudaSource MARK = new ModuleImage.CudaSource("""
            extern "C" __global__ void mark(int *blocks, float *data, int n) {
                if (threadIdx.x == 0) blocks[blockIdx.x] = 1;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
                    data[i] = data[i] * 2.0f + 1.0f;
            }
            """, "mark.cu", List.of(), List.of());
    private static final int GRID = 64;
    private static final int N = GRID * 128 * 4;

    private static EmulatedBackend backend(EmulatedExecution mode) {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        return EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).hostApiNanos(0).execution(mode).build();
    }

    /** Runs mark on a GRID-block grid on device 0; returns the kernel's duration. */
    private static long launchMark(EmulatedBackend b, int grid, DeviceBuffer blocks, DeviceBuffer data,
                                   StreamHandle s) {
        b.recordTimeline(true);
        FunctionHandle mark = b.function(b.loadModule(0, MARK), "mark");
        b.launch(mark, LaunchConfig.of(grid, 128), new Object[] {blocks, data, N}, s, OperationLabel.NONE);
        b.synchronizeAll();
        var kernel = b.timeline().getLast();
        return kernel.endNanos() - kernel.startNanos();
    }

    @Test
    void aLargeGridRunsEightEvenlySpreadBlocksAndLastsAsLongAsTheFullRun() {
        long full;
        try (EmulatedBackend b = backend(EmulatedExecution.FULL)) {
            full = launchMark(b, GRID, b.allocate(0, GRID * 4), b.allocate(0, N * 4L), b.createStream(0));
        }
        try (EmulatedBackend b = backend(EmulatedExecution.SAMPLED)) {
            DeviceBuffer blocks = b.allocate(0, GRID * 4);
            assertEquals(full, launchMark(b, GRID, blocks, b.allocate(0, N * 4L), b.createStream(0)));
            int[] ran = ((EmulatedBuffer) blocks).segment().toArray(JAVA_INT);
            // The middle block of each eighth of the grid: 4, 12, ..., 60.
            int[] expected = new int[GRID];
            IntStream.range(0, 8).forEach(i -> expected[8 * i + 4] = 1);
            assertArrayEquals(expected, ran);
        }
    }

    @Test
    void readingASampledOutputBackFailsSayingItWasNotComputed() {
        try (EmulatedBackend b = backend(EmulatedExecution.SAMPLED)) {
            DeviceBuffer data = b.allocate(0, N * 4L);
            StreamHandle s = b.createStream(0);
            launchMark(b, GRID, b.allocate(0, GRID * 4), data, s);
            b.copyDeviceToHost(data, b.allocateHost(N * 4L), N * 4L, s, OperationLabel.NONE);
            BackendException e = assertThrows(BackendException.class, b::synchronizeAll);
            assertTrue(e.getMessage().contains("EmulatedExecution=sampled"), e.getMessage());
            assertTrue(e.getMessage().contains("not computed"), e.getMessage());
        }
    }

    @Test
    void aDeviceCopyCarriesTheMarkAndAWholeHostCopyClearsIt() {
        try (EmulatedBackend b = backend(EmulatedExecution.SAMPLED)) {
            DeviceBuffer data = b.allocate(0, N * 4L);
            DeviceBuffer copy = b.allocate(1, N * 4L);
            StreamHandle s = b.createStream(0);
            launchMark(b, GRID, b.allocate(0, GRID * 4), data, s);
            StreamHandle s1 = b.createStream(1);
            b.copyDeviceToDevice(data, copy, N * 4L, s1, OperationLabel.NONE);
            b.synchronizeAll();
            assertTrue(((EmulatedBuffer) copy).notComputed());
            b.copyHostToDevice(MemorySegment.ofArray(new int[N]), copy, N * 4L, s1, OperationLabel.NONE);
            b.copyDeviceToHost(copy, b.allocateHost(N * 4L), N * 4L, s1, OperationLabel.NONE);
            b.synchronizeAll();
            assertTrue(((EmulatedBuffer) data).notComputed());
            assertEquals(false, ((EmulatedBuffer) copy).notComputed());
        }
    }

    @Test
    void aGridOfAtMostEightBlocksRunsWholeAndItsOutputCanBeRead() {
        try (EmulatedBackend b = backend(EmulatedExecution.SAMPLED)) {
            DeviceBuffer blocks = b.allocate(0, 8 * 4);
            StreamHandle s = b.createStream(0);
            launchMark(b, 8, blocks, b.allocate(0, N * 4L), s);
            MemorySegment back = b.allocateHost(8 * 4);
            b.copyDeviceToHost(blocks, back, 8 * 4, s, OperationLabel.NONE);
            b.synchronizeAll();
            assertArrayEquals(new int[] {1, 1, 1, 1, 1, 1, 1, 1}, back.toArray(JAVA_INT));
        }
    }

    @Test
    void fullExecutionIsTheDefaultAndRunsEveryBlock() {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).build()) {
            DeviceBuffer blocks = b.allocate(0, GRID * 4);
            StreamHandle s = b.createStream(0);
            launchMark(b, GRID, blocks, b.allocate(0, N * 4L), s);
            MemorySegment back = b.allocateHost(GRID * 4);
            b.copyDeviceToHost(blocks, back, GRID * 4, s, OperationLabel.NONE);
            b.synchronizeAll();
            assertTrue(IntStream.of(back.toArray(JAVA_INT)).allMatch(v -> v == 1));
        }
    }
}
