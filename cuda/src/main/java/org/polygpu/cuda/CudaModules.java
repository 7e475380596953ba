package org.polygpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.polygpu.backend.BackendException;

/**
 * The module part of the CUDA driver façade: loading CUBIN and PTX images in the current context, looking up
 * functions and launching kernels, with the same one-check error handling as {@link CudaDriver}.
 *
 * <p>PTX is compiled by the driver's JIT when loaded. A PTX whose ISA version ({@code .version}) is newer than the
 * driver knows fails with {@code CUDA_ERROR_UNSUPPORTED_PTX_VERSION}; the message then says which ISA the PTX
 * declares and which driver is installed, and that compiling to a CUBIN for the device avoids the JIT. A CUBIN for
 * another architecture fails with {@code CUDA_ERROR_NO_BINARY_FOR_GPU} or {@code CUDA_ERROR_INVALID_IMAGE}. Errors
 * carry the JIT's error log when it wrote one. Stateless and thread-safe.
 */
public final class CudaModules {
    private static final int CU_JIT_ERROR_LOG_BUFFER = 5;
    private static final int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
    private static final int LOG_BYTES = 16 * 1024;
    private static final Pattern PTX_VERSION = Pattern.compile("^\\s*\\.version\\s+(\\S+)", Pattern.MULTILINE);

    private final CudaDriver driver;

    CudaModules(CudaDriver driver) {
        this.driver = driver;
    }

    /** Loads PTX text in the current context (JIT-compiled by the driver). */
    public MemorySegment loadPtx(String ptx) {
        try (Arena arena = Arena.ofConfined()) {
            return load(arena.allocateFrom(ptx), code -> ptxHint(code, ptx));
        }
    }

    /** Loads a CUBIN in the current context; {@code architecture} (such as {@code sm_90}) is quoted on failure. */
    public MemorySegment loadCubin(byte[] cubin, String architecture) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment image = arena.allocate(cubin.length, 16);
            MemorySegment.copy(cubin, 0, image, JAVA_BYTE, 0, cubin.length);
            return load(image, code -> code == CuResult.CUDA_ERROR_NO_BINARY_FOR_GPU.code()
                    || code == CuResult.CUDA_ERROR_INVALID_IMAGE.code()
                    ? "the CUBIN was built for " + architecture + "; a CUBIN loads only on a GPU of its major "
                            + "architecture version with an equal or newer minor version"
                    : "");
        }
    }

    private MemorySegment load(MemorySegment image, Hint hint) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment log = arena.allocate(LOG_BYTES);
            MemorySegment options = arena.allocate(JAVA_INT, 2);
            options.setAtIndex(JAVA_INT, 0, CU_JIT_ERROR_LOG_BUFFER);
            options.setAtIndex(JAVA_INT, 1, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
            MemorySegment values = arena.allocate(ADDRESS, 2);
            values.setAtIndex(ADDRESS, 0, log);
            // The size option's value is the number itself, passed in the pointer slot (C: (void *) size).
            values.setAtIndex(JAVA_LONG, 1, LOG_BYTES);
            MemorySegment moduleOut = arena.allocate(ADDRESS);
            int code = driver.api().moduleLoadDataEx(moduleOut, image, 2, options, values);
            if (code != 0) {
                String jitLog = log.getString(0).strip();
                String detail = hint.text(code) + (jitLog.isEmpty() ? "" : "\nJIT log:\n" + jitLog);
                throw driver.failure(CudaSymbol.cuModuleLoadDataEx, code, detail);
            }
            return moduleOut.get(ADDRESS, 0);
        }
    }

    public void unload(MemorySegment module) {
        driver.check(driver.api().moduleUnload(module), CudaSymbol.cuModuleUnload);
    }

    /** The kernel {@code name} (its mangled name for C++ kernels) of a loaded module. */
    public MemorySegment function(MemorySegment module, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int code = driver.api().moduleGetFunction(out, module, arena.allocateFrom(name));
            if (code != 0) {
                throw driver.failure(CudaSymbol.cuModuleGetFunction, code, "no kernel named '" + name
                        + "' in the module (C++ kernels need extern \"C\" or their mangled name)");
            }
            return out.get(ADDRESS, 0);
        }
    }

    /**
     * Copies {@code src} into the module variable {@code name} from byte {@code offset} on, synchronously, in the
     * current context ({@code cuModuleGetGlobal}, then {@code cuMemcpyHtoD} from native memory).
     *
     * @throws BackendException when the bytes do not fit in the variable
     */
    public void writeGlobal(MemorySegment module, String name, long offset, MemorySegment src) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pointer = arena.allocate(JAVA_LONG);
            MemorySegment bytes = arena.allocate(JAVA_LONG);
            int code = driver.api().moduleGetGlobal(pointer, bytes, module, arena.allocateFrom(name));
            if (code != 0) {
                throw driver.failure(CudaSymbol.cuModuleGetGlobal_v2, code, "no variable named '" + name
                        + "' in the module (a variable in a namespace goes by its mangled name)");
            }
            long size = bytes.get(JAVA_LONG, 0);
            if (offset < 0 || offset + src.byteSize() > size) {
                throw new BackendException(src.byteSize() + " bytes at offset " + offset
                        + " do not fit in variable '" + name + "' of " + size + " bytes");
            }
            MemorySegment copy = arena.allocate(Math.max(1, src.byteSize())).copyFrom(src);
            driver.check(driver.api().memcpyHtoD(pointer.get(JAVA_LONG, 0) + offset, copy, src.byteSize()),
                    CudaSymbol.cuMemcpyHtoD_v2);
        }
    }

    /**
     * Enqueues a kernel: {@code kernelParams} is an array of pointers, one per kernel parameter, each to the
     * argument's value (a device pointer's 8 bytes for a pointer parameter).
     */
    public void launch(MemorySegment function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
            int sharedMemoryBytes, MemorySegment stream, MemorySegment kernelParams) {
        driver.check(driver.api().launchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                sharedMemoryBytes, stream, kernelParams, MemorySegment.NULL), CudaSymbol.cuLaunchKernel);
    }

    private String ptxHint(int code, String ptx) {
        if (code != CuResult.CUDA_ERROR_UNSUPPORTED_PTX_VERSION.code()) {
            return "";
        }
        Matcher m = PTX_VERSION.matcher(ptx);
        String isa = m.find() ? "ISA " + m.group(1) : "an ISA version";
        return "the PTX declares " + isa + " (its .version line), newer than this CUDA driver (" + driver.version()
                + ") can compile: it came from an NVRTC newer than the driver. Compile to a CUBIN for the device "
                + "(--gpu-architecture=sm_XY; the CUDA backend does so for ModuleImage.CudaSource) or update the "
                + "NVIDIA driver";
    }

    /** What a failed load means, given its code. */
    @FunctionalInterface
    private interface Hint {
        String text(int code);
    }
}
