package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.bench.hand.HandBaselines;
import org.polygpu.bench.hand.HandResult;
import org.polygpu.bench.hand.HandRun;
import org.polygpu.nvrtc.NvrtcLibrary;

/**
 * The hand-optimized baselines in {@code EmulatedExecution=sampled}: they run without reading anything back, and give
 * the makespan of the full run (without validation) within 5%, with the same copies and kernels. The sizes are the
 * smallest at which the launches that carry the work have grids of more than the 8 sampled blocks (VEC, B&S and ML:
 * 64-block grids; CG and MUL: 9-block matvecs on 2304-row partitions; CG on two of them, so that its exchanges
 * between GPUs are sampled too).
 */
class HandSampledTest {
    static List<HandRun> runs() {
        return List.of(
                HandRun.of("vec", 4 * 16384, 4, 2, "v100x8"),
                HandRun.of("bs", 4 * 16384, 4, 2, "v100x8"),
                HandRun.of("ml", 4 * 4096, 4, 2, "v100x8"),
                HandRun.of("cg", 2 * 2304, 2, 2, "v100x8").withIterations(1),
                HandRun.of("mul", 2304, 1, 2, "v100x8"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void sampledGivesTheFullMakespanWithinFivePercent(HandRun run) {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(),
                "NVRTC is not installed; run scripts/install-nvrtc.sh");
        assertEquals(List.of("vec", "bs", "ml", "cg", "mul"), HandBaselines.names());
        HandResult full = HandBaselines.run(run.withoutValidation());
        HandResult sampled = HandBaselines.run(run.sampled());
        assertTrue(sampled.verdict().ok(), sampled.verdict().line());
        assertEquals(0, sampled.bytesDeviceToHost());
        assertEquals(full.bytesHostToDevice(), sampled.bytesHostToDevice());
        assertEquals(full.bytesDeviceToDevice(), sampled.bytesDeviceToDevice());
        assertEquals(full.kernels(), sampled.kernels());
        double ratio = sampled.makespanMicros() / full.makespanMicros();
        assertTrue(Math.abs(ratio - 1) <= 0.05, run.benchmark() + ": sampled " + sampled.makespanMicros()
                + " us, full " + full.makespanMicros() + " us");
    }
}
