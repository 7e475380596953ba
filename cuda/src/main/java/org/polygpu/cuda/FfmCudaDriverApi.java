package org.polygpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;

/**
 * {@link CudaDriverApi} over {@code libcuda.so.1} through FFM downcall handles.
 *
 * <p>Symbols are bound lazily by {@link DriverHandles}, so that a driver too old for one function (managed-memory
 * prefetch, say) still serves the rest and the missing one fails with a {@link CudaException} naming it. The library
 * stays loaded for the life of the JVM (global arena). Thread-safe.
 */
final class FfmCudaDriverApi implements CudaDriverApi {
    /** The driver library's soname; the unversioned {@code libcuda.so} exists only with the toolkit installed. */
    static final String LIBRARY = "libcuda.so.1";

    private final DriverHandles handles;

    private FfmCudaDriverApi(SymbolLookup lookup) {
        this.handles = new DriverHandles(lookup, LIBRARY);
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

    @Override
    public int init(int flags) {
        return handles.callI(CudaSymbol.cuInit, flags);
    }

    @Override
    public int driverGetVersion(MemorySegment versionOut) {
        return handles.callA(CudaSymbol.cuDriverGetVersion, versionOut);
    }

    @Override
    public int getErrorName(int result, MemorySegment nameOut) {
        try {
            return (int) handles.get(CudaSymbol.cuGetErrorName).invokeExact(result, nameOut);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int deviceGetCount(MemorySegment countOut) {
        return handles.callA(CudaSymbol.cuDeviceGetCount, countOut);
    }

    @Override
    public int deviceGet(MemorySegment deviceOut, int ordinal) {
        return handles.callAI(CudaSymbol.cuDeviceGet, deviceOut, ordinal);
    }

    @Override
    public int deviceGetName(MemorySegment name, int length, int device) {
        return handles.callAII(CudaSymbol.cuDeviceGetName, name, length, device);
    }

    @Override
    public int deviceGetAttribute(MemorySegment valueOut, int attribute, int device) {
        return handles.callAII(CudaSymbol.cuDeviceGetAttribute, valueOut, attribute, device);
    }

    @Override
    public int deviceTotalMem(MemorySegment bytesOut, int device) {
        return handles.callAI(CudaSymbol.cuDeviceTotalMem_v2, bytesOut, device);
    }

    @Override
    public int deviceCanAccessPeer(MemorySegment canAccessOut, int device, int peerDevice) {
        return handles.callAII(CudaSymbol.cuDeviceCanAccessPeer, canAccessOut, device, peerDevice);
    }

    @Override
    public int devicePrimaryCtxRetain(MemorySegment contextOut, int device) {
        return handles.callAI(CudaSymbol.cuDevicePrimaryCtxRetain, contextOut, device);
    }

    @Override
    public int devicePrimaryCtxRelease(int device) {
        return handles.callI(CudaSymbol.cuDevicePrimaryCtxRelease_v2, device);
    }

    @Override
    public int ctxSetCurrent(MemorySegment context) {
        return handles.callA(CudaSymbol.cuCtxSetCurrent, context);
    }

    @Override
    public int ctxSynchronize() {
        try {
            return (int) handles.get(CudaSymbol.cuCtxSynchronize).invokeExact();
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int ctxEnablePeerAccess(MemorySegment peerContext, int flags) {
        return handles.callAI(CudaSymbol.cuCtxEnablePeerAccess, peerContext, flags);
    }

    @Override
    public int memGetInfo(MemorySegment freeOut, MemorySegment totalOut) {
        return handles.callAA(CudaSymbol.cuMemGetInfo_v2, freeOut, totalOut);
    }

    @Override
    public int memAlloc(MemorySegment pointerOut, long bytes) {
        try {
            return (int) handles.get(CudaSymbol.cuMemAlloc_v2).invokeExact(pointerOut, bytes);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int memAllocManaged(MemorySegment pointerOut, long bytes, int flags) {
        return handles.callALI(CudaSymbol.cuMemAllocManaged, pointerOut, bytes, flags);
    }

    @Override
    public int memFree(long pointer) {
        try {
            return (int) handles.get(CudaSymbol.cuMemFree_v2).invokeExact(pointer);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int memHostAlloc(MemorySegment hostOut, long bytes, int flags) {
        return handles.callALI(CudaSymbol.cuMemHostAlloc, hostOut, bytes, flags);
    }

    @Override
    public int memFreeHost(MemorySegment host) {
        return handles.callA(CudaSymbol.cuMemFreeHost, host);
    }

    @Override
    public int memsetD8Async(long pointer, byte value, long count, MemorySegment stream) {
        try {
            return (int) handles.get(CudaSymbol.cuMemsetD8Async).invokeExact(pointer, value, count, stream);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int memcpyHtoDAsync(long destination, MemorySegment source, long bytes, MemorySegment stream) {
        try {
            return (int) handles.get(CudaSymbol.cuMemcpyHtoDAsync_v2).invokeExact(destination, source, bytes, stream);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int memcpyDtoHAsync(MemorySegment destination, long source, long bytes, MemorySegment stream) {
        try {
            return (int) handles.get(CudaSymbol.cuMemcpyDtoHAsync_v2).invokeExact(destination, source, bytes, stream);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int memcpyDtoDAsync(long destination, long source, long bytes, MemorySegment stream) {
        try {
            return (int) handles.get(CudaSymbol.cuMemcpyDtoDAsync_v2).invokeExact(destination, source, bytes, stream);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int memcpyPeerAsync(long destination, MemorySegment destinationContext, long source,
            MemorySegment sourceContext, long bytes, MemorySegment stream) {
        try {
            return (int) handles.get(CudaSymbol.cuMemcpyPeerAsync).invokeExact(destination, destinationContext, source,
                    sourceContext, bytes, stream);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int memPrefetchAsync(long pointer, long bytes, int device, MemorySegment stream) {
        try {
            return (int) handles.get(CudaSymbol.cuMemPrefetchAsync).invokeExact(pointer, bytes, device, stream);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int memAdvise(long pointer, long bytes, int advice, int device) {
        try {
            return (int) handles.get(CudaSymbol.cuMemAdvise).invokeExact(pointer, bytes, advice, device);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int streamCreate(MemorySegment streamOut, int flags) {
        return handles.callAI(CudaSymbol.cuStreamCreate, streamOut, flags);
    }

    @Override
    public int streamDestroy(MemorySegment stream) {
        return handles.callA(CudaSymbol.cuStreamDestroy_v2, stream);
    }

    @Override
    public int streamSynchronize(MemorySegment stream) {
        return handles.callA(CudaSymbol.cuStreamSynchronize, stream);
    }

    @Override
    public int streamWaitEvent(MemorySegment stream, MemorySegment event, int flags) {
        try {
            return (int) handles.get(CudaSymbol.cuStreamWaitEvent).invokeExact(stream, event, flags);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int eventCreate(MemorySegment eventOut, int flags) {
        return handles.callAI(CudaSymbol.cuEventCreate, eventOut, flags);
    }

    @Override
    public int eventDestroy(MemorySegment event) {
        return handles.callA(CudaSymbol.cuEventDestroy_v2, event);
    }

    @Override
    public int eventRecord(MemorySegment event, MemorySegment stream) {
        return handles.callAA(CudaSymbol.cuEventRecord, event, stream);
    }

    @Override
    public int eventQuery(MemorySegment event) {
        return handles.callA(CudaSymbol.cuEventQuery, event);
    }

    @Override
    public int eventSynchronize(MemorySegment event) {
        return handles.callA(CudaSymbol.cuEventSynchronize, event);
    }

    @Override
    public int eventElapsedTime(MemorySegment millisOut, MemorySegment start, MemorySegment end) {
        return handles.callAAA(CudaSymbol.cuEventElapsedTime, millisOut, start, end);
    }

    @Override
    public int moduleLoadDataEx(MemorySegment moduleOut, MemorySegment image, int optionCount, MemorySegment options,
            MemorySegment optionValues) {
        try {
            return (int) handles.get(CudaSymbol.cuModuleLoadDataEx).invokeExact(moduleOut, image, optionCount, options,
                    optionValues);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int moduleUnload(MemorySegment module) {
        return handles.callA(CudaSymbol.cuModuleUnload, module);
    }

    @Override
    public int moduleGetFunction(MemorySegment functionOut, MemorySegment module, MemorySegment name) {
        return handles.callAAA(CudaSymbol.cuModuleGetFunction, functionOut, module, name);
    }

    @Override
    public int moduleGetGlobal(MemorySegment pointerOut, MemorySegment bytesOut, MemorySegment module,
            MemorySegment name) {
        try {
            return (int) handles.get(CudaSymbol.cuModuleGetGlobal_v2).invokeExact(pointerOut, bytesOut, module, name);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int memcpyHtoD(long destination, MemorySegment source, long bytes) {
        try {
            return (int) handles.get(CudaSymbol.cuMemcpyHtoD_v2).invokeExact(destination, source, bytes);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }

    @Override
    public int launchKernel(MemorySegment function, int gridX, int gridY, int gridZ, int blockX, int blockY,
            int blockZ, int sharedMemoryBytes, MemorySegment stream, MemorySegment kernelParams,
            MemorySegment extra) {
        try {
            return (int) handles.get(CudaSymbol.cuLaunchKernel).invokeExact(function, gridX, gridY, gridZ, blockX, blockY,
                    blockZ, sharedMemoryBytes, stream, kernelParams, extra);
        } catch (Throwable t) {
            throw DriverHandles.unexpected(t);
        }
    }
}
