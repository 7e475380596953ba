package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole kernel corpus compiled by NVRTC for each architecture the device models have (V100 compute_70, A100
 * compute_80, H100 compute_90) and checked against the same references as {@link CorpusTest},
 * {@link CorpusAtomicsAndVotesTest} and {@link CorpusClassicsTest}. Skipped without NVRTC.
 */
class CorpusArchitecturesTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void everyCorpusKernelRunsAsCompiledFor(String arch) {
        assertTrue(CudaCompiler.ptx("__global__ void probe() {}", arch).contains(".target sm_" + arch.substring(8)));
        CorpusTest.ARCHITECTURE.set(arch);
        try {
            CorpusTest corpus = new CorpusTest();
            corpus.vectorSquaresAndShuffleReduction();
            corpus.blackScholesBothVariants();
            corpus.mlEnsembleScoresSoftmaxAndArgmax();
            corpus.conjugateGradientKernelsSolveALaplacian();
            corpus.matrixVectorTiledMatmulAndBlurAreBitExact();
            CorpusAtomicsAndVotesTest atomics = new CorpusAtomicsAndVotesTest();
            atomics.histogramDoublesBallotsCasMaxTemplatesAndDeviceHelper();
            atomics.ballotsCountPositiveLanesAndVote();
            CorpusClassicsTest classics = new CorpusClassicsTest();
            classics.twoLevelReductionSumsExactly();
            classics.blellochScanOverManyBlocksIsAnExclusivePrefixSum();
            classics.paddedTileTransposeIsExact();
            classics.bitonicSortSortsEverySegmentAsUnsigned();
            classics.nbodyAccelerationsMatchADoubleReference();
        } finally {
            CorpusTest.ARCHITECTURE.remove();
        }
    }
}
