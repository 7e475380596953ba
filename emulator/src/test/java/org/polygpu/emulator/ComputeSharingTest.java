package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;
import org.polygpu.nvrtc.NvrtcLibrary;

/**
 * PTX kernels running at once on one device share it by their resident warps ({@link ComputeModel}): grids that
 * together fit in the device overlap without slowing down, grids that fill it take as long together as one after
 * the other. Needs NVRTC (skips without it).
 */
class ComputeSharingTest {
    private static final ModuleImage.CudaSource SCALE = new ModuleImage.CudaSource("""
            extern "C" __global__ void scale(float *x, int n) {
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
                    x[i] = 2.0f * x[i] + 1.0f;
                }
            }
            """, "scale.cu", List.of(), List.of("scale"));

    /** The kernel durations of {@code streams} launches of {@code grid} x 256 threads over 2^16 floats. */
    private static List<TimedOperation> run(int streams, int grid) {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            FunctionHandle scale = b.function(b.loadModule(0, SCALE), "scale");
            for (int s = 0; s < streams; s++) {
                DeviceBuffer x = b.allocate(0, 4 << 16);
                b.launch(scale, LaunchConfig.of(grid, 256), new Object[] {x, 1 << 16}, b.createStream(0),
                        OperationLabel.NONE);
            }
            b.synchronizeAll();
            return b.timeline();
        }
    }

    private static long duration(TimedOperation t) {
        return t.endNanos() - t.startNanos();
    }

    @Test
    void smallGridsThatFitTogetherOverlapWithoutSlowingDown() {
        // 4 blocks of 8 warps each on SMs of their own: four fit together without contending for issue slots.
        long alone = duration(run(1, 4).get(0));
        List<TimedOperation> together = run(4, 4);
        for (TimedOperation t : together) {
            assertEquals(alone, duration(t));
        }
    }

    @Test
    void gridsThatFillTheDeviceTakeAsLongTogetherAsInTurn() {
        // 640 blocks of 8 warps fill the V100 (8 blocks, its 64 resident warps, on each of its 80 SMs): two at once
        // take turns on the SMs, each progressing at half speed.
        long alone = duration(run(1, 640).get(0));
        long latency = 4_000;
        List<TimedOperation> together = run(2, 640);
        for (TimedOperation t : together) {
            assertEquals(latency + 2 * (alone - latency), duration(t), 1);
        }
    }
}
