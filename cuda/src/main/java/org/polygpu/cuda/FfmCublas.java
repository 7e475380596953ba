package org.polygpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.polygpu.backend.BackendException;
import org.polygpu.blas.BlasFunction;
import org.polygpu.sched.Parameter;

/**
 * cuBLAS through FFM: handles, their stream and pointer mode, and the BLAS functions of {@link BlasFunction}, each
 * bound on first use by its {@code _v2} symbol with the handle first, then an {@code int} for each scalar parameter
 * (sizes, strides, {@code cublasOperation_t}) and a pointer for each pointer parameter. Every status goes through
 * one check that names the function and the status's C name. The library stays loaded until {@link #close()}; one
 * caller at a time.
 */
final class FfmCublas implements AutoCloseable {
    /** {@code CUBLAS_POINTER_MODE_DEVICE}: alpha, beta and results are device pointers. */
    static final int POINTER_MODE_DEVICE = 1;
    private static final Map<Integer, String> STATUS = Map.of(0, "CUBLAS_STATUS_SUCCESS", 1,
            "CUBLAS_STATUS_NOT_INITIALIZED", 3, "CUBLAS_STATUS_ALLOC_FAILED", 7, "CUBLAS_STATUS_INVALID_VALUE", 8,
            "CUBLAS_STATUS_ARCH_MISMATCH", 11, "CUBLAS_STATUS_MAPPING_ERROR", 13, "CUBLAS_STATUS_EXECUTION_FAILED", 14,
            "CUBLAS_STATUS_INTERNAL_ERROR", 15, "CUBLAS_STATUS_NOT_SUPPORTED", 16, "CUBLAS_STATUS_LICENSE_ERROR");

    private final Path path;
    private final Arena arena;
    private final SymbolLookup symbols;
    private final Linker linker = Linker.nativeLinker();
    private final MethodHandle create;
    private final MethodHandle destroy;
    private final MethodHandle setStream;
    private final MethodHandle setPointerMode;
    private final Map<String, MethodHandle> functions = new HashMap<>();

    private FfmCublas(Path path, Arena arena) {
        this.path = path;
        this.arena = arena;
        this.symbols = SymbolLookup.libraryLookup(path, arena);
        this.create = bind("cublasCreate_v2", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        this.destroy = bind("cublasDestroy_v2", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        this.setStream = bind("cublasSetStream_v2", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS));
        this.setPointerMode = bind("cublasSetPointerMode_v2", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    }

    /** @throws BackendException when the library cannot be loaded or lacks the handle functions */
    static FfmCublas load(Path library) {
        Arena arena = Arena.ofShared();
        try {
            return new FfmCublas(library, arena);
        } catch (IllegalArgumentException | BackendException e) {
            arena.close();
            throw new BackendException("cannot load cuBLAS from " + library + ": " + e.getMessage(), e);
        }
    }

    private MethodHandle bind(String symbol, FunctionDescriptor descriptor) {
        MemorySegment address = symbols.find(symbol).orElseThrow(() -> new BackendException(path + " has no "
                + symbol));
        return linker.downcallHandle(address, descriptor);
    }

    /** A new handle on the current context's device. */
    MemorySegment create() {
        try (Arena local = Arena.ofConfined()) {
            MemorySegment out = local.allocate(ValueLayout.ADDRESS);
            check("cublasCreate_v2", invoke(create, out));
            return out.get(ValueLayout.ADDRESS, 0);
        }
    }

    void destroy(MemorySegment handle) {
        check("cublasDestroy_v2", invoke(destroy, handle));
    }

    void setStream(MemorySegment handle, MemorySegment stream) {
        check("cublasSetStream_v2", invoke(setStream, handle, stream));
    }

    void setPointerMode(MemorySegment handle, int mode) {
        check("cublasSetPointerMode_v2", invoke(setPointerMode, handle, mode));
    }

    /**
     * Calls {@code f} with {@code handle} and {@code arguments}: a {@code Long} device address for each pointer
     * parameter, an {@code Integer} for each scalar.
     */
    void call(BlasFunction f, MemorySegment handle, Object[] arguments) {
        MethodHandle h = functions.computeIfAbsent(f.symbol(), s -> bind(s, descriptor(f.parameters())));
        Object[] all = new Object[arguments.length + 1];
        all[0] = handle;
        for (int i = 0; i < arguments.length; i++) {
            all[i + 1] = f.parameters().get(i).pointer() ? MemorySegment.ofAddress((Long) arguments[i])
                    : ((Number) arguments[i]).intValue();
        }
        check(f.symbol(), invoke(h, all));
    }

    private static FunctionDescriptor descriptor(List<Parameter> parameters) {
        MemoryLayout[] layouts = new MemoryLayout[parameters.size() + 1];
        layouts[0] = ValueLayout.ADDRESS;
        for (int i = 0; i < parameters.size(); i++) {
            layouts[i + 1] = parameters.get(i).pointer() ? ValueLayout.ADDRESS : ValueLayout.JAVA_INT;
        }
        return FunctionDescriptor.of(ValueLayout.JAVA_INT, layouts);
    }

    private static int invoke(MethodHandle h, Object... arguments) {
        try {
            return (int) h.invokeWithArguments(arguments);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new BackendException("cuBLAS call failed: " + t, t);
        }
    }

    /** @throws BackendException {@code "cublasSaxpy_v2 failed: CUBLAS_STATUS_INVALID_VALUE (7)"} */
    static void check(String function, int status) {
        if (status != 0) {
            throw new BackendException(function + " failed: " + STATUS.getOrDefault(status, "unknown cuBLAS status")
                    + " (" + status + ")");
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
