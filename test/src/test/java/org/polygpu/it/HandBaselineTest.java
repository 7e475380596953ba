package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.bench.hand.HandBlackScholes;
import org.polygpu.bench.hand.HandMatrixVector;
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

    private static void check(Verdict v, int gpus) {
        assertTrue(v.ok(), v.line());
        assertEquals(gpus, v.gpus(), v.line());
        assertTrue(v.detail().contains("makespan"), v.line());
    }
}
