/**
 * Hand-optimized baselines of the paper's benchmarks: Java programs that drive the backend SPI directly, with the
 * placement, streams and copies an expert would choose, no scheduler involved — the simulation's analogue of the
 * paper's C++ CUDA versions (§IV-C). They run the same kernels on the same emulated devices as the polygpu
 * programs of {@code org.polygpu.bench.programs}. {@link org.polygpu.bench.hand.HandBaselines#run} runs one
 * {@link org.polygpu.bench.hand.HandRun} and returns its {@link org.polygpu.bench.hand.HandResult}.
 */
package org.polygpu.bench.hand;
