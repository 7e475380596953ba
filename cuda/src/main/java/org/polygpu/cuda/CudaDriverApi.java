package org.polygpu.cuda;

import java.lang.foreign.MemorySegment;

/**
 * The CUDA driver API functions that polygpu uses, one method per C function (the versioned {@code _v2} symbol
 * where one exists), with C parameters as Java values: handles ({@code CUcontext}, {@code CUstream}, …) and host
 * pointers as memory segments, {@code CUdeviceptr} and {@code size_t} as {@code long}, {@code CUdevice} and enums as
 * {@code int}.
 *
 * <p>Each method returns the raw {@code CUresult}; {@link CudaDriver} checks it. Output parameters point to memory
 * the caller allocated. Tests implement this interface to drive the façade without a GPU.
 */
interface CudaDriverApi {
    int init(int flags);

    int driverGetVersion(MemorySegment versionOut);

    /** {@code cuGetErrorName}: stores a pointer to the driver's static C string in {@code nameOut}. */
    int getErrorName(int result, MemorySegment nameOut);

    int deviceGetCount(MemorySegment countOut);

    int deviceGet(MemorySegment deviceOut, int ordinal);

    int deviceGetName(MemorySegment name, int length, int device);

    int deviceGetAttribute(MemorySegment valueOut, int attribute, int device);

    int deviceTotalMem(MemorySegment bytesOut, int device);

    int deviceCanAccessPeer(MemorySegment canAccessOut, int device, int peerDevice);

    int devicePrimaryCtxRetain(MemorySegment contextOut, int device);

    int devicePrimaryCtxRelease(int device);

    int ctxSetCurrent(MemorySegment context);

    int ctxSynchronize();

    int ctxEnablePeerAccess(MemorySegment peerContext, int flags);

    int memGetInfo(MemorySegment freeOut, MemorySegment totalOut);

    int memAlloc(MemorySegment pointerOut, long bytes);

    int memAllocManaged(MemorySegment pointerOut, long bytes, int flags);

    int memFree(long pointer);

    int memHostAlloc(MemorySegment hostOut, long bytes, int flags);

    int memFreeHost(MemorySegment host);

    int memsetD8Async(long pointer, byte value, long count, MemorySegment stream);

    int memcpyHtoDAsync(long destination, MemorySegment source, long bytes, MemorySegment stream);

    int memcpyDtoHAsync(MemorySegment destination, long source, long bytes, MemorySegment stream);

    int memcpyDtoDAsync(long destination, long source, long bytes, MemorySegment stream);

    int memcpyPeerAsync(long destination, MemorySegment destinationContext, long source,
            MemorySegment sourceContext, long bytes, MemorySegment stream);

    /** The legacy-ABI {@code cuMemPrefetchAsync(ptr, count, CUdevice, stream)}, exported by every CUDA 8+ driver. */
    int memPrefetchAsync(long pointer, long bytes, int device, MemorySegment stream);

    /** The legacy-ABI {@code cuMemAdvise(ptr, count, advice, CUdevice)}. */
    int memAdvise(long pointer, long bytes, int advice, int device);

    int streamCreate(MemorySegment streamOut, int flags);

    int streamDestroy(MemorySegment stream);

    int streamSynchronize(MemorySegment stream);

    int streamWaitEvent(MemorySegment stream, MemorySegment event, int flags);

    int eventCreate(MemorySegment eventOut, int flags);

    int eventDestroy(MemorySegment event);

    int eventRecord(MemorySegment event, MemorySegment stream);

    int eventQuery(MemorySegment event);

    int eventSynchronize(MemorySegment event);

    int eventElapsedTime(MemorySegment millisOut, MemorySegment start, MemorySegment end);

    int moduleLoadDataEx(MemorySegment moduleOut, MemorySegment image, int optionCount, MemorySegment options,
            MemorySegment optionValues);

    int moduleUnload(MemorySegment module);

    int moduleGetFunction(MemorySegment functionOut, MemorySegment module, MemorySegment name);

    int moduleGetGlobal(MemorySegment pointerOut, MemorySegment bytesOut, MemorySegment module, MemorySegment name);

    int memcpyHtoD(long destination, MemorySegment source, long bytes);

    int launchKernel(MemorySegment function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
            int sharedMemoryBytes, MemorySegment stream, MemorySegment kernelParams, MemorySegment extra);
}
