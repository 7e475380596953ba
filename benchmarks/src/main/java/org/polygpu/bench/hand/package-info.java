/**
 * Hand-optimized baselines of the paper's benchmarks: Java programs that drive the backend SPI directly, with the
 * placement, streams and copies an expert would choose, no scheduler involved — the simulation's analogue of the
 * paper's C++ CUDA versions (§IV-C). They run the same kernels on the same emulated devices as the polygpu
 * programs of {@code org.polygpu.bench.programs}.
 */
package org.polygpu.bench.hand;
