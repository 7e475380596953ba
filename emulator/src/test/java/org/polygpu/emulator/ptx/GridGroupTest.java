package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.backend.BackendException;
import org.polygpu.nvrtc.Nvrtc;

/**
 * Cooperative groups' {@code this_grid()} on the emulator, whose launches are never cooperative: a module that uses
 * it loads, its ranks and sizes are right, and {@code grid.sync()} traps, as CUDA's does outside a cooperative
 * launch (the driver's {@code %envreg} registers hold no grid workspace). Skipped without NVRTC or the CUDA headers.
 */
class GridGroupTest {
    private static final String SOURCE = """
            #include <cooperative_groups.h>
            namespace cg = cooperative_groups;
            extern "C" __global__ void ranks(unsigned long long *out) {
                cg::grid_group g = cg::this_grid();
                out[g.thread_rank()] = g.size() * 1000000ull + g.thread_rank() * 10 + g.is_valid();
            }
            extern "C" __global__ void synced(int *x) {
                cg::grid_group g = cg::this_grid();
                x[g.thread_rank()] = 1;
                g.sync();
                x[g.thread_rank()] += x[(g.thread_rank() + 1) % g.size()];
            }
            """;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_90"})
    void thisGridRanksWorkAndGridSyncTrapsOutsideACooperativeLaunch(String arch) {
        CudaCompiler.ptx("__global__ void probe() {}", "compute_70"); // skips without NVRTC
        Assumptions.assumeFalse(Nvrtc.load(null).includeDirectories().isEmpty(), "no CUDA headers beside NVRTC");
        PtxModule m = CudaCompiler.compile(SOURCE, arch);
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(8L * 96);
            d.launch(m, "ranks", 3, 32, out);
            long[] expected = new long[96];
            for (int i = 0; i < 96; i++) {
                expected[i] = 96 * 1_000_000L + i * 10L; // is_valid() is false: no grid workspace
            }
            assertArrayEquals(expected, d.longsAt(out, 96), arch);
            BackendException e = assertThrows(BackendException.class, () -> d.launch(m, "synced", 2, 32,
                    d.ints(new int[64])));
            assertTrue(e.getMessage().contains("trap"), e.getMessage());
        }
    }
}
