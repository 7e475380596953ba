package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.bench.hand.HandBaselines;
import org.polygpu.bench.hand.HandBlackScholes;
import org.polygpu.bench.hand.HandConjugateGradient;
import org.polygpu.bench.hand.HandMatrixVector;
import org.polygpu.bench.hand.HandMlEnsemble;
import org.polygpu.bench.hand.HandResult;
import org.polygpu.bench.hand.HandRun;
import org.polygpu.bench.hand.HandVec;
import org.polygpu.bench.programs.Verdict;
import org.polygpu.nvrtc.NvrtcLibrary;

/** The hand-optimized baselines (backend SPI, no scheduler) compute what the CPU references compute. */
class HandBaselineTest {
    @BeforeEach
    void needsNvrtc() {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(),
                "NVRTC is not installed; run scripts/install-nvrtc.sh");
    }

    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {1, 2, 4})
    void vecMatchesItsReferenceExactly(int gpus) {
        check(HandVec.run(1000, 8, gpus, "v100x8"), gpus);
    }

    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {1, 2, 4})
    void blackScholesIsWithinItsTolerance(int gpus) {
        check(HandBlackScholes.run(1000, 8, gpus, "a100x8"), gpus);
    }

    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {1, 2, 4})
    void matrixVectorIsWithinItsRoundingBound(int gpus) {
        check(HandMatrixVector.run(64, 8, gpus, "v100x8"), gpus);
    }

    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {1, 2, 4})
    void mlEnsemblePredictsTheReferenceClasses(int gpus) {
        check(HandMlEnsemble.run(1000, 8, gpus, "v100x8"), gpus);
    }

    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {1, 2, 4})
    void conjugateGradientIsWithinItsTolerance(int gpus) {
        check(HandConjugateGradient.run(256, 8, gpus, "v100x8", 4), gpus);
    }

    @Test
    void theRegistryNamesTheBenchmarksOfThePolygpuPrograms() {
        assertEquals(List.of("vec", "bs", "ml", "cg", "mul"), HandBaselines.names());
    }

    // Every copy counted by its kind: VEC copies x, y (n floats each) and a zero accumulator per partition in, and
    // the accumulators back; MUL sends x to GPU 0, broadcasts it to the 3 others, and reads the n results back.
    @Test
    void theResultCountsEveryCopyByItsKind() {
        HandResult vec = HandBaselines.run(HandRun.of("vec", 1000, 8, 2, "v100x8"));
        assertEquals(2 * 1000 * 4 + 8 * 8, vec.bytesHostToDevice());
        assertEquals(0, vec.bytesDeviceToDevice());
        assertEquals(8 * 8, vec.bytesDeviceToHost());
        assertEquals(24, vec.kernels());
        HandResult mul = HandBaselines.run(HandRun.of("mul", 64, 8, 4, "v100x8"));
        assertEquals(64 * 64 * 4 + 64 * 4, mul.bytesHostToDevice());
        assertEquals(3 * 64 * 4, mul.bytesDeviceToDevice());
        assertEquals(64 * 4, mul.bytesDeviceToHost());
        for (HandResult r : List.of(vec, mul)) {
            assertTrue(r.verdict().ok(), r.verdict().line());
            assertTrue(r.criticalPathMicros() > 0 && r.criticalPathMicros() <= r.makespanMicros(), r.toString());
            // The device time the kernels consumed fits in the GPUs' time (it leaves out latencies and idle SMs).
            assertTrue(r.kernelMicros() > 0 && r.kernelMicros() <= r.makespanMicros() * r.run().gpus(), r.toString());
        }
    }

    @Test
    void withoutValidationNothingComesBack() {
        HandResult r = HandBaselines.run(HandRun.of("bs", 1000, 8, 2, "v100x8").withoutValidation());
        assertEquals(0, r.bytesDeviceToHost());
        assertTrue(r.verdict().ok() && r.verdict().detail().contains("not validated"), r.verdict().line());
    }

    // The A100 model has 1.7 times the V100's memory bandwidth and more compute: MUL's kernels take less time on it.
    @Test
    void theDeviceModelIsTheOneTheRunNames() {
        HandRun run = HandRun.of("mul", 256, 4, 2, "a100x8");
        HandResult v100 = HandBaselines.run(run);
        HandResult a100 = HandBaselines.run(run.withDeviceModel("A100"));
        assertTrue(a100.kernelMicros() < v100.kernelMicros(), a100.kernelMicros() + " us on A100, "
                + v100.kernelMicros() + " us on V100");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> HandBaselines.run(run.withDeviceModel("K80")));
        assertTrue(unknown.getMessage().contains("K80"), unknown.getMessage());
    }

    @Test
    void aRunThatCannotBeMadeSaysWhichParameterIsWrong() {
        IllegalArgumentException sampledValidated = assertThrows(IllegalArgumentException.class,
                () -> new HandRun("vec", 1000, 8, 2, "v100x8", 1, org.polygpu.config.EmulatedExecution.SAMPLED,
                        true));
        assertTrue(sampledValidated.getMessage().contains("validate"), sampledValidated.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> HandRun.of("fft", 1000, 8, 2, "v100x8"));
        assertTrue(unknown.getMessage().contains("benchmark"), unknown.getMessage());
        IllegalArgumentException iterations = assertThrows(IllegalArgumentException.class,
                () -> HandRun.of("vec", 1000, 8, 2, "v100x8").withIterations(3));
        assertTrue(iterations.getMessage().contains("iterations"), iterations.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HandRun.of("vec", 4, 8, 2, "v100x8"));
    }

    private static void check(Verdict v, int gpus) {
        assertTrue(v.ok(), v.line());
        assertEquals(gpus, v.gpus(), v.line());
        assertTrue(v.detail().contains("makespan"), v.line());
    }
}
