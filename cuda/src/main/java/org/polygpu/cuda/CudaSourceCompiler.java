package org.polygpu.cuda;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.polygpu.backend.ModuleImage;
import org.polygpu.nvrtc.KernelCache;
import org.polygpu.nvrtc.Nvrtc;
import org.polygpu.nvrtc.NvrtcException;
import org.polygpu.nvrtc.NvrtcResult;
import org.polygpu.nvrtc.NvrtcStatus;

/**
 * Compiles {@link ModuleImage.CudaSource} with NVRTC for one device architecture: a CUBIN for {@code sm_XY} (no JIT,
 * so the driver's age does not matter), or, when this NVRTC does not know that architecture (a GPU newer than the
 * compiler), PTX for the newest virtual architecture it knows that the device can run, which the driver JIT-compiles.
 *
 * <p>NVRTC is loaded on first use ({@code NvrtcLibrary} option, else the usual places). Results are cached per source
 * and architecture, so a kernel used on eight devices of one model compiles once, and on disk in a {@link KernelCache}
 * across runs. Not thread-safe (the backend's single caller).
 */
final class CudaSourceCompiler {
    /** Virtual architectures to try for the PTX fallback, newest first. */
    private static final int[] VIRTUAL_ARCHITECTURES = {120, 103, 101, 100, 90, 89, 87, 86, 80, 75, 72, 70, 61, 60,
        53, 52, 50};

    private final String nvrtcLibrary;
    private final KernelCache kernelCache;
    private final Map<Key, Compiled> cache = new HashMap<>();
    private Nvrtc nvrtc;

    /** @param nvrtcLibrary the {@code NvrtcLibrary} option, or {@code null} to search the usual places */
    CudaSourceCompiler(String nvrtcLibrary) {
        this(nvrtcLibrary, KernelCache.disabled());
    }

    /**
     * @param nvrtcLibrary the {@code NvrtcLibrary} option, or {@code null} to search the usual places
     * @param kernelCache  where compilations are kept across runs
     */
    CudaSourceCompiler(String nvrtcLibrary, KernelCache kernelCache) {
        this.nvrtcLibrary = nvrtcLibrary;
        this.kernelCache = kernelCache;
    }

    /**
     * What a compilation gave: a CUBIN or PTX image and the mangled names of the source's name expressions.
     */
    record Compiled(ModuleImage image, Map<String, String> loweredNames) {
    }

    private record Key(ModuleImage.CudaSource source, int computeCapability) {
    }

    /**
     * Compiles {@code source} for compute capability {@code major.minor}.
     *
     * @throws NvrtcException when NVRTC is missing (saying how to install it) or the source does not compile (with
     *     the compiler log)
     */
    Compiled compile(ModuleImage.CudaSource source, int major, int minor) {
        int capability = major * 10 + minor;
        Key key = new Key(source, capability);
        Compiled compiled = cache.get(key);
        if (compiled == null) {
            compiled = compileUncached(source, capability);
            cache.put(key, compiled);
        }
        return compiled;
    }

    private Compiled compileUncached(ModuleImage.CudaSource source, int capability) {
        String architecture = "sm_" + capability;
        try {
            NvrtcResult r = kernelCache.compile(nvrtcLibrary, this::compiler, source.source(), source.programName(),
                    options(source, "--gpu-architecture=" + architecture), source.nameExpressions());
            return new Compiled(new ModuleImage.Cubin(r.cubin(), architecture), r.loweredNames());
        } catch (NvrtcException e) {
            if (e.status().orElse(null) != NvrtcStatus.NVRTC_ERROR_INVALID_OPTION) {
                throw e;
            }
            return ptxFallback(source, capability, e);
        }
    }

    /**
     * The PTX of {@code source} for the virtual architecture of compute capability {@code major.minor}, or the newest
     * one NVRTC knows below it: what a user asks to read, since a CUBIN has none.
     *
     * @throws NvrtcException when NVRTC is missing or the source does not compile
     */
    String ptx(ModuleImage.CudaSource source, int major, int minor) {
        int capability = major * 10 + minor;
        try {
            return kernelCache.compile(nvrtcLibrary, this::compiler, source.source(), source.programName(),
                    options(source, "--gpu-architecture=compute_" + capability), source.nameExpressions()).ptx();
        } catch (NvrtcException e) {
            if (e.status().orElse(null) != NvrtcStatus.NVRTC_ERROR_INVALID_OPTION) {
                throw e;
            }
            return ((ModuleImage.Ptx) ptxFallback(source, capability, e).image()).text();
        }
    }

    /** PTX for the newest virtual architecture NVRTC accepts that is not newer than the device. */
    private Compiled ptxFallback(ModuleImage.CudaSource source, int capability, NvrtcException cubinFailure) {
        for (int virtual : VIRTUAL_ARCHITECTURES) {
            if (virtual > capability) {
                continue;
            }
            try {
                NvrtcResult r = kernelCache.compile(nvrtcLibrary, this::compiler, source.source(), source.programName(),
                        options(source, "--gpu-architecture=compute_" + virtual), source.nameExpressions());
                return new Compiled(new ModuleImage.Ptx(r.ptx()), r.loweredNames());
            } catch (NvrtcException e) {
                if (e.status().orElse(null) != NvrtcStatus.NVRTC_ERROR_INVALID_OPTION) {
                    throw e;
                }
            }
        }
        throw cubinFailure;
    }

    /** The source's options with any architecture of its own replaced by {@code architecture}. */
    private static List<String> options(ModuleImage.CudaSource source, String architecture) {
        List<String> options = new ArrayList<>();
        for (String o : source.options()) {
            if (!o.startsWith("--gpu-architecture") && !o.startsWith("-arch")) {
                options.add(o);
            }
        }
        options.add(architecture);
        return options;
    }

    private Nvrtc compiler() {
        if (nvrtc == null) {
            nvrtc = Nvrtc.load(nvrtcLibrary);
        }
        return nvrtc;
    }
}
