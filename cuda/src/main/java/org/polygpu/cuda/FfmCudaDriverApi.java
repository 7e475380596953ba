package org.polygpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * {@link CudaDriverApi} over {@code libcuda.so.1} through FFM downcall handles.
 *
 * <p>Symbols are looked up and bound lazily, on the first call of each function, so that a driver too old for one
 * function (managed-memory prefetch, say) still serves the rest and the missing one fails with a
 * {@link CudaException} naming it. The library stays loaded for the life of the JVM (global arena). Thread-safe:
 * bound handles are immutable and published through an atomic array.
 */
final class FfmCudaDriverApi implements CudaDriverApi {
    /** The driver library's soname; the unversioned {@code libcuda.so} exists only with the toolkit installed. */
    static final String LIBRARY = "libcuda.so.1";

    private static final Linker LINKER = Linker.nativeLinker();
    private static final CudaSymbol[] SYMBOLS = CudaSymbol.values();

    private final SymbolLookup lookup;
    private final AtomicReferenceArray<MethodHandle> handles = new AtomicReferenceArray<>(SYMBOLS.length);

    private FfmCudaDriverApi(SymbolLookup lookup) {
        this.lookup = lookup;
    }

    /**
     * Loads the driver library.
     *
     * @throws CudaException when {@code libcuda.so.1} cannot be loaded (no NVIDIA driver installed)
     */
    static FfmCudaDriverApi open() {
        try {
            return new FfmCudaDriverApi(SymbolLookup.libraryLookup(LIBRARY, Arena.global()));
        } catch (IllegalArgumentException e) {
            throw CudaException.unavailable("no CUDA driver (" + LIBRARY + " not found)", e);
        }
    }

    private MethodHandle h(CudaSymbol symbol) {
        MethodHandle bound = handles.get(symbol.ordinal());
        if (bound == null) {
            MemorySegment address = lookup.find(symbol.name()).orElseThrow(() -> CudaException.unavailable(
                    "the CUDA driver (" + LIBRARY + ") has no function " + symbol.name()
                            + "; polygpu needs an NVIDIA driver for CUDA 12 or newer", null));
            bound = LINKER.downcallHandle(address, symbol.descriptor());
            handles.compareAndSet(symbol.ordinal(), null, bound);
        }
        return bound;
    }

    @Override
    public int init(int flags) {
        return callI(CudaSymbol.cuInit, flags);
    }

    @Override
    public int driverGetVersion(MemorySegment versionOut) {
        return callA(CudaSymbol.cuDriverGetVersion, versionOut);
    }

    @Override
    public int getErrorName(int result, MemorySegment nameOut) {
        try {
            return (int) h(CudaSymbol.cuGetErrorName).invokeExact(result, nameOut);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int deviceGetCount(MemorySegment countOut) {
        return callA(CudaSymbol.cuDeviceGetCount, countOut);
    }

    @Override
    public int deviceGet(MemorySegment deviceOut, int ordinal) {
        return callAI(CudaSymbol.cuDeviceGet, deviceOut, ordinal);
    }

    @Override
    public int deviceGetName(MemorySegment name, int length, int device) {
        return callAII(CudaSymbol.cuDeviceGetName, name, length, device);
    }

    @Override
    public int deviceGetAttribute(MemorySegment valueOut, int attribute, int device) {
        return callAII(CudaSymbol.cuDeviceGetAttribute, valueOut, attribute, device);
    }

    @Override
    public int deviceTotalMem(MemorySegment bytesOut, int device) {
        return callAI(CudaSymbol.cuDeviceTotalMem_v2, bytesOut, device);
    }

    @Override
    public int deviceCanAccessPeer(MemorySegment canAccessOut, int device, int peerDevice) {
        return callAII(CudaSymbol.cuDeviceCanAccessPeer, canAccessOut, device, peerDevice);
    }

    @Override
    public int devicePrimaryCtxRetain(MemorySegment contextOut, int device) {
        return callAI(CudaSymbol.cuDevicePrimaryCtxRetain, contextOut, device);
    }

    @Override
    public int devicePrimaryCtxRelease(int device) {
        return callI(CudaSymbol.cuDevicePrimaryCtxRelease_v2, device);
    }

    @Override
    public int ctxSetCurrent(MemorySegment context) {
        return callA(CudaSymbol.cuCtxSetCurrent, context);
    }

    @Override
    public int ctxSynchronize() {
        try {
            return (int) h(CudaSymbol.cuCtxSynchronize).invokeExact();
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int ctxEnablePeerAccess(MemorySegment peerContext, int flags) {
        return callAI(CudaSymbol.cuCtxEnablePeerAccess, peerContext, flags);
    }

    @Override
    public int memGetInfo(MemorySegment freeOut, MemorySegment totalOut) {
        return callAA(CudaSymbol.cuMemGetInfo_v2, freeOut, totalOut);
    }

    @Override
    public int memAlloc(MemorySegment pointerOut, long bytes) {
        try {
            return (int) h(CudaSymbol.cuMemAlloc_v2).invokeExact(pointerOut, bytes);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int memAllocManaged(MemorySegment pointerOut, long bytes, int flags) {
        return callALI(CudaSymbol.cuMemAllocManaged, pointerOut, bytes, flags);
    }

    @Override
    public int memFree(long pointer) {
        try {
            return (int) h(CudaSymbol.cuMemFree_v2).invokeExact(pointer);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int memHostAlloc(MemorySegment hostOut, long bytes, int flags) {
        return callALI(CudaSymbol.cuMemHostAlloc, hostOut, bytes, flags);
    }

    @Override
    public int memFreeHost(MemorySegment host) {
        return callA(CudaSymbol.cuMemFreeHost, host);
    }

    @Override
    public int memsetD8Async(long pointer, byte value, long count, MemorySegment stream) {
        try {
            return (int) h(CudaSymbol.cuMemsetD8Async).invokeExact(pointer, value, count, stream);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int memcpyHtoDAsync(long destination, MemorySegment source, long bytes, MemorySegment stream) {
        try {
            return (int) h(CudaSymbol.cuMemcpyHtoDAsync_v2).invokeExact(destination, source, bytes, stream);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int memcpyDtoHAsync(MemorySegment destination, long source, long bytes, MemorySegment stream) {
        try {
            return (int) h(CudaSymbol.cuMemcpyDtoHAsync_v2).invokeExact(destination, source, bytes, stream);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int memcpyDtoDAsync(long destination, long source, long bytes, MemorySegment stream) {
        try {
            return (int) h(CudaSymbol.cuMemcpyDtoDAsync_v2).invokeExact(destination, source, bytes, stream);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int memcpyPeerAsync(long destination, MemorySegment destinationContext, long source,
            MemorySegment sourceContext, long bytes, MemorySegment stream) {
        try {
            return (int) h(CudaSymbol.cuMemcpyPeerAsync).invokeExact(destination, destinationContext, source,
                    sourceContext, bytes, stream);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int memPrefetchAsync(long pointer, long bytes, int device, MemorySegment stream) {
        try {
            return (int) h(CudaSymbol.cuMemPrefetchAsync).invokeExact(pointer, bytes, device, stream);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int memAdvise(long pointer, long bytes, int advice, int device) {
        try {
            return (int) h(CudaSymbol.cuMemAdvise).invokeExact(pointer, bytes, advice, device);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int streamCreate(MemorySegment streamOut, int flags) {
        return callAI(CudaSymbol.cuStreamCreate, streamOut, flags);
    }

    @Override
    public int streamDestroy(MemorySegment stream) {
        return callA(CudaSymbol.cuStreamDestroy_v2, stream);
    }

    @Override
    public int streamSynchronize(MemorySegment stream) {
        return callA(CudaSymbol.cuStreamSynchronize, stream);
    }

    @Override
    public int streamWaitEvent(MemorySegment stream, MemorySegment event, int flags) {
        try {
            return (int) h(CudaSymbol.cuStreamWaitEvent).invokeExact(stream, event, flags);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int eventCreate(MemorySegment eventOut, int flags) {
        return callAI(CudaSymbol.cuEventCreate, eventOut, flags);
    }

    @Override
    public int eventDestroy(MemorySegment event) {
        return callA(CudaSymbol.cuEventDestroy_v2, event);
    }

    @Override
    public int eventRecord(MemorySegment event, MemorySegment stream) {
        return callAA(CudaSymbol.cuEventRecord, event, stream);
    }

    @Override
    public int eventQuery(MemorySegment event) {
        return callA(CudaSymbol.cuEventQuery, event);
    }

    @Override
    public int eventSynchronize(MemorySegment event) {
        return callA(CudaSymbol.cuEventSynchronize, event);
    }

    @Override
    public int eventElapsedTime(MemorySegment millisOut, MemorySegment start, MemorySegment end) {
        return callAAA(CudaSymbol.cuEventElapsedTime, millisOut, start, end);
    }

    @Override
    public int moduleLoadDataEx(MemorySegment moduleOut, MemorySegment image, int optionCount, MemorySegment options,
            MemorySegment optionValues) {
        try {
            return (int) h(CudaSymbol.cuModuleLoadDataEx).invokeExact(moduleOut, image, optionCount, options,
                    optionValues);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int moduleUnload(MemorySegment module) {
        return callA(CudaSymbol.cuModuleUnload, module);
    }

    @Override
    public int moduleGetFunction(MemorySegment functionOut, MemorySegment module, MemorySegment name) {
        return callAAA(CudaSymbol.cuModuleGetFunction, functionOut, module, name);
    }

    @Override
    public int moduleGetGlobal(MemorySegment pointerOut, MemorySegment bytesOut, MemorySegment module,
            MemorySegment name) {
        try {
            return (int) h(CudaSymbol.cuModuleGetGlobal_v2).invokeExact(pointerOut, bytesOut, module, name);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int memcpyHtoD(long destination, MemorySegment source, long bytes) {
        try {
            return (int) h(CudaSymbol.cuMemcpyHtoD_v2).invokeExact(destination, source, bytes);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int launchKernel(MemorySegment function, int gridX, int gridY, int gridZ, int blockX, int blockY,
            int blockZ, int sharedMemoryBytes, MemorySegment stream, MemorySegment kernelParams,
            MemorySegment extra) {
        try {
            return (int) h(CudaSymbol.cuLaunchKernel).invokeExact(function, gridX, gridY, gridZ, blockX, blockY,
                    blockZ, sharedMemoryBytes, stream, kernelParams, extra);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    private int callI(CudaSymbol symbol, int a) {
        try {
            return (int) h(symbol).invokeExact(a);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    private int callA(CudaSymbol symbol, MemorySegment a) {
        try {
            return (int) h(symbol).invokeExact(a);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    private int callAA(CudaSymbol symbol, MemorySegment a, MemorySegment b) {
        try {
            return (int) h(symbol).invokeExact(a, b);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    private int callAAA(CudaSymbol symbol, MemorySegment a, MemorySegment b, MemorySegment c) {
        try {
            return (int) h(symbol).invokeExact(a, b, c);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    private int callAI(CudaSymbol symbol, MemorySegment a, int b) {
        try {
            return (int) h(symbol).invokeExact(a, b);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    private int callAII(CudaSymbol symbol, MemorySegment a, int b, int c) {
        try {
            return (int) h(symbol).invokeExact(a, b, c);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    private int callALI(CudaSymbol symbol, MemorySegment a, long b, int c) {
        try {
            return (int) h(symbol).invokeExact(a, b, c);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    /** A downcall declares {@code Throwable} but only rethrows what the invocation machinery raises. */
    private static RuntimeException unexpected(Throwable t) {
        if (t instanceof RuntimeException runtime) {
            return runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        return new IllegalStateException("unexpected exception from a CUDA driver downcall", t);
    }
}
