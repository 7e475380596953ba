package org.polygpu.emulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.polygpu.backend.ModuleImage;
import org.polygpu.nvrtc.KernelCache;
import org.polygpu.nvrtc.Nvrtc;
import org.polygpu.nvrtc.NvrtcException;
import org.polygpu.nvrtc.NvrtcLibrary;
import org.polygpu.nvrtc.NvrtcResult;

/**
 * Compiles {@link ModuleImage.CudaSource} to PTX with NVRTC for the emulated devices' virtual architecture
 * ({@link DeviceModel#ptxArchitecture()}), resolving the source's name expressions (such as {@code inc_kernel<int>})
 * to the mangled names of the kernels they instantiate, as the CUDA backend does.
 *
 * <p>NVRTC is loaded on first use, once per backend: the {@code NvrtcLibrary} option when given, else the places
 * {@link NvrtcLibrary} searches. Results are cached per source, so a kernel loaded on eight devices compiles once, and
 * on disk in a {@link KernelCache} across runs (a hit there loads no NVRTC). Not thread-safe (the backend's single
 * caller).
 */
final class PtxSourceCompiler {
    private final String nvrtcLibrary;
    private final String architecture;
    private final KernelCache kernelCache;
    private final Map<ModuleImage.CudaSource, Compiled> cache = new HashMap<>();
    private Nvrtc nvrtc;

    /**
     * @param nvrtcLibrary the {@code NvrtcLibrary} option, or {@code null} to search the usual places
     * @param kernelCache  where compilations are kept across runs
     * @param architecture the virtual architecture to compile for, such as {@code compute_70}
     */
    PtxSourceCompiler(String nvrtcLibrary, KernelCache kernelCache, String architecture) {
        this.nvrtcLibrary = nvrtcLibrary;
        this.kernelCache = kernelCache;
        this.architecture = architecture;
    }

    /** What a compilation gave: the PTX text and each name expression's mangled name. */
    record Compiled(String ptx, Map<String, String> loweredNames) {
    }

    /**
     * Compiles {@code source}, or returns what compiling it gave before.
     *
     * @throws NvrtcException when NVRTC is missing (saying how to install it) or the source does not compile (with
     *     the compiler log)
     */
    Compiled compile(ModuleImage.CudaSource source) {
        Compiled compiled = cache.get(source);
        if (compiled == null) {
            NvrtcResult r = kernelCache.compile(nvrtcLibrary, this::compiler, source.source(), source.programName(),
                    options(source), source.nameExpressions());
            compiled = new Compiled(r.ptx(), r.loweredNames());
            cache.put(source, compiled);
        }
        return compiled;
    }

    /** The source's options with any architecture of its own replaced by this compiler's. */
    private List<String> options(ModuleImage.CudaSource source) {
        List<String> options = new ArrayList<>();
        for (String o : source.options()) {
            if (!o.startsWith("--gpu-architecture") && !o.startsWith("-arch")) {
                options.add(o);
            }
        }
        options.add("--gpu-architecture=" + architecture);
        return options;
    }

    private Nvrtc compiler() {
        if (nvrtc == null) {
            nvrtc = Nvrtc.load(nvrtcLibrary);
        }
        return nvrtc;
    }
}
