package org.polygpu.nvrtc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The CUDA headers found beside an NVRTC library, which NVRTC itself does not ship: {@code cooperative_groups.h},
 * {@code cuda_fp16.h}, {@code cuda_bf16.h} and the runtime headers, and CCCL's CUB, Thrust and libcu++
 * ({@code cuda/std/*}).
 *
 * <p>Beside a pip wheel ({@code <dir>/nvidia/cuda_nvrtc/lib}), they are the {@code nvidia-cuda-runtime-cu12} and
 * {@code nvidia-cuda-cccl-cu12} wheels that {@code scripts/install-nvrtc.sh} installs into the same {@code <dir>}
 * ({@code nvidia/cuda_runtime/include}, {@code nvidia/cuda_cccl/include}); CUDA 13's wheels share
 * {@code nvidia/cu13/include}. Beside a toolkit's {@code lib64}, they are its {@code include} (and
 * {@code include/cccl}, where CUDA 13 moved CCCL). Only directories that exist are given.
 *
 * <p>The C and C++ standard library headers are {@link StandardHeaders}. Stateless.
 */
final class NvrtcHeaders {
    private NvrtcHeaders() {
    }

    /** The include directories for the NVRTC library at {@code library}, most specific first. */
    static List<Path> beside(Path library) {
        Path lib = library.toAbsolutePath().normalize().getParent();
        List<Path> candidates = new ArrayList<>();
        Path component = lib == null ? null : lib.getParent();
        Path nvidia = component == null ? null : component.getParent();
        // The root directory has no file name: a library directly in a top-level directory has no component.
        String name = component == null || component.getFileName() == null ? "" : component.getFileName().toString();
        if (nvidia != null && name.equals("cuda_nvrtc")) {
            candidates.add(nvidia.resolve("cuda_runtime/include"));
            candidates.add(nvidia.resolve("cuda_cccl/include"));
        } else if (name.equals("cu13")) {
            candidates.add(component.resolve("include/cccl"));
            candidates.add(component.resolve("include"));
        } else if (component != null) {
            candidates.add(component.resolve("include/cccl"));
            candidates.add(component.resolve("include"));
        }
        return candidates.stream().filter(Files::isDirectory).toList();
    }
}
