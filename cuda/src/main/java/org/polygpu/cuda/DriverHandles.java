package org.polygpu.cuda;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The CUDA driver's functions as FFM downcall handles, bound on first use, and typed calls through them for the
 * common parameter shapes (the letters name the parameters: A an address, I an {@code int}, L a {@code long}).
 * Thread-safe: bound handles are immutable and published through an atomic array.
 */
final class DriverHandles {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final CudaSymbol[] SYMBOLS = CudaSymbol.values();

    private final SymbolLookup lookup;
    private final String library;
    private final AtomicReferenceArray<MethodHandle> handles = new AtomicReferenceArray<>(SYMBOLS.length);

    DriverHandles(SymbolLookup lookup, String library) {
        this.lookup = lookup;
        this.library = library;
    }

    /**
     * The bound function.
     *
     * @throws CudaException naming the function when the driver does not export it
     */
    MethodHandle get(CudaSymbol symbol) {
        MethodHandle bound = handles.get(symbol.ordinal());
        if (bound == null) {
            MemorySegment address = lookup.find(symbol.name()).orElseThrow(() -> CudaException.unavailable(
                    "the CUDA driver (" + library + ") has no function " + symbol.name()
                            + "; polygpu needs an NVIDIA driver for CUDA 12 or newer", null));
            bound = LINKER.downcallHandle(address, symbol.descriptor());
            handles.compareAndSet(symbol.ordinal(), null, bound);
        }
        return bound;
    }

    int callI(CudaSymbol symbol, int a) {
        try {
            return (int) get(symbol).invokeExact(a);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    int callA(CudaSymbol symbol, MemorySegment a) {
        try {
            return (int) get(symbol).invokeExact(a);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    int callAA(CudaSymbol symbol, MemorySegment a, MemorySegment b) {
        try {
            return (int) get(symbol).invokeExact(a, b);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    int callAAA(CudaSymbol symbol, MemorySegment a, MemorySegment b, MemorySegment c) {
        try {
            return (int) get(symbol).invokeExact(a, b, c);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    int callAI(CudaSymbol symbol, MemorySegment a, int b) {
        try {
            return (int) get(symbol).invokeExact(a, b);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    int callAII(CudaSymbol symbol, MemorySegment a, int b, int c) {
        try {
            return (int) get(symbol).invokeExact(a, b, c);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    int callALI(CudaSymbol symbol, MemorySegment a, long b, int c) {
        try {
            return (int) get(symbol).invokeExact(a, b, c);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    /** A downcall declares {@code Throwable} but only rethrows what the invocation machinery raises. */
    static RuntimeException unexpected(Throwable t) {
        if (t instanceof RuntimeException runtime) {
            return runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        return new IllegalStateException("unexpected exception from a CUDA driver downcall", t);
    }
}
