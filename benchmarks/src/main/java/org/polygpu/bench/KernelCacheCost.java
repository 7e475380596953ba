package org.polygpu.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.polygpu.nvrtc.KernelCache;
import org.polygpu.nvrtc.Nvrtc;

/**
 * What the kernel cache saves: the same CUDA source compiled three times through a {@link KernelCache} in a new
 * directory (a miss, then two hits), for a tiny kernel and for one that includes CUB's block reduction. Prints the
 * milliseconds of each, and of loading NVRTC. Run with NVRTC installed:
 * {@code $JAVA_HOME/bin/java --enable-native-access=ALL-UNNAMED -cp runtime/target/classes:benchmarks/target/classes
 * org.polygpu.bench.KernelCacheCost}.
 */
public final class KernelCacheCost {
    private static final String TINY = """
            extern "C" __global__ void square(const float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i] * x[i];
            }
            """;
    private static final String CUB = """
            #include <cub/block/block_reduce.cuh>
            extern "C" __global__ void block_sum(const float *x, float *out) {
                typedef cub::BlockReduce<float, 256> Reduce;
                __shared__ typename Reduce::TempStorage scratch;
                float v = Reduce(scratch).Sum(x[threadIdx.x]);
                if (threadIdx.x == 0) *out = v;
            }
            """;

    private KernelCacheCost() {
    }

    public static void main(String[] args) throws IOException {
        long start = System.nanoTime();
        Nvrtc nvrtc = Nvrtc.load(null);
        System.out.printf(Locale.ROOT, "load NVRTC %s: %.0f ms%n", nvrtc.version(), (System.nanoTime() - start) / 1e6);
        KernelCache cache = KernelCache.in(Files.createTempDirectory("polygpu-kernel-cache"));
        time(cache, nvrtc, "tiny kernel", TINY, "square");
        time(cache, nvrtc, "CUB block reduction", CUB, "block_sum");
    }

    private static void time(KernelCache cache, Nvrtc nvrtc, String what, String source, String name) {
        StringBuilder line = new StringBuilder(what + ":");
        for (String run : List.of("miss", "hit", "hit")) {
            long start = System.nanoTime();
            cache.compile(nvrtc, source, name + ".cu", List.of("--gpu-architecture=compute_70"), List.of(name));
            line.append(String.format(Locale.ROOT, " %s %.0f ms", run, (System.nanoTime() - start) / 1e6));
        }
        System.out.println(line);
    }
}
