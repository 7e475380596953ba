package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The counters the timing model reads: distinct sectors, bank conflicts, hot atomics and exposed loads. */
class TimingCountersTest {
    private static final String SOURCE = """
            extern "C" __global__ void periodic(const float *w, float *out) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                out[i] = w[(i % 5) * 32];
            }
            extern "C" __global__ void banks(float *out, int stride) {
                __shared__ float s[32 * 32];
                s[threadIdx.x * stride] = threadIdx.x;
                __syncthreads();
                out[threadIdx.x] = s[threadIdx.x * stride];
            }
            extern "C" __global__ void hot(int *acc, int perBlock) {
                atomicAdd(&acc[perBlock ? blockIdx.x : 0], 1);
            }
            extern "C" __global__ void gather(const int *index, const float *a, float *out) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                out[i] = a[index[i]];
            }
            extern "C" __global__ void sum(const float *a, const float *b, float *out) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                out[i] = a[i] + b[i];
            }
            """;
    private static final PtxModule MODULE = CudaCompiler.compile(SOURCE, "compute_80");

    @Test
    void aWarpAccessCountsItsDistinctSectorsEvenWhenLanesCycleOverThem() {
        try (TestDevice d = new TestDevice()) {
            KernelCounters c = d.launch(MODULE, "periodic", 1, 32, d.floats(new float[160]), d.allocate(4 * 32));
            // the load touches 5 sectors (rows 128 bytes apart, lanes cycling over them), the store 4; the load's
            // sectors are in 5 lines, the store's 128 bytes in 1 (the buffer is 256-byte aligned)
            assertEquals(5 + 4, c.globalSectors());
            assertEquals(5 + 1, c.globalLines());
        }
    }

    @Test
    void sharedAccessesCostTheirBankConflictDegree() {
        for (int[] strideAndDegree : new int[][] {{1, 1}, {2, 2}, {32, 32}}) {
            try (TestDevice d = new TestDevice()) {
                KernelCounters c = d.launch(MODULE, "banks", 1, 32, d.allocate(4 * 32), strideAndDegree[0]);
                assertEquals(2, c.sharedAccesses());
                assertEquals(2L * strideAndDegree[1], c.sharedWavefronts(), "stride " + strideAndDegree[0]);
            }
        }
    }

    @Test
    void atomicsOnOneAddressFromEveryBlockAreHot() {
        try (TestDevice d = new TestDevice()) {
            assertEquals(8 * 64, d.launch(MODULE, "hot", 8, 64, d.allocate(4 * 8), 0).hotAtomics());
        }
        try (TestDevice d = new TestDevice()) {
            assertEquals(64, d.launch(MODULE, "hot", 8, 64, d.allocate(4 * 8), 1).hotAtomics(),
                    "each block on its own address");
        }
    }

    @Test
    void aLoadWhoseAddressComesFromALoadWaitsAgain() {
        try (TestDevice d = new TestDevice()) {
            KernelCounters gather = d.launch(MODULE, "gather", 2, 32, d.ints(new int[64]), d.floats(new float[64]),
                    d.allocate(4 * 64));
            assertEquals(2 * 2, gather.mix().exposedLoads());
            assertEquals(2 * 2, gather.mix().globalLoads());
            KernelCounters sum = d.launch(MODULE, "sum", 2, 32, d.floats(new float[64]), d.floats(new float[64]),
                    d.allocate(4 * 64));
            assertEquals(2, sum.mix().exposedLoads(), "two independent loads wait once");
            assertEquals(2 * 2, sum.mix().globalLoads());
            assertEquals(2, sum.mix().globalStores());
        }
    }
}
