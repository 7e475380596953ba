package org.polygpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;

/**
 * The CUDA driver symbols {@link FfmCudaDriverApi} binds, by their exported C names, each with its C signature:
 * {@code CUresult} → int; handles and host pointers → address; {@code CUdeviceptr}, {@code size_t} → long;
 * {@code CUdevice}, {@code unsigned int}, enums → int; {@code unsigned char} → byte.
 */
enum CudaSymbol {
    cuInit(JAVA_INT),
    cuDriverGetVersion(ADDRESS),
    cuGetErrorName(JAVA_INT, ADDRESS),
    cuDeviceGetCount(ADDRESS),
    cuDeviceGet(ADDRESS, JAVA_INT),
    cuDeviceGetName(ADDRESS, JAVA_INT, JAVA_INT),
    cuDeviceGetAttribute(ADDRESS, JAVA_INT, JAVA_INT),
    cuDeviceTotalMem_v2(ADDRESS, JAVA_INT),
    cuDeviceCanAccessPeer(ADDRESS, JAVA_INT, JAVA_INT),
    cuDevicePrimaryCtxRetain(ADDRESS, JAVA_INT),
    cuDevicePrimaryCtxRelease_v2(JAVA_INT),
    cuCtxSetCurrent(ADDRESS),
    cuCtxSynchronize(),
    cuCtxEnablePeerAccess(ADDRESS, JAVA_INT),
    cuMemGetInfo_v2(ADDRESS, ADDRESS),
    cuMemAlloc_v2(ADDRESS, JAVA_LONG),
    cuMemAllocManaged(ADDRESS, JAVA_LONG, JAVA_INT),
    cuMemFree_v2(JAVA_LONG),
    cuMemHostAlloc(ADDRESS, JAVA_LONG, JAVA_INT),
    cuMemFreeHost(ADDRESS),
    cuMemsetD8Async(JAVA_LONG, JAVA_BYTE, JAVA_LONG, ADDRESS),
    cuMemcpyHtoDAsync_v2(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS),
    cuMemcpyDtoHAsync_v2(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS),
    cuMemcpyDtoDAsync_v2(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS),
    cuMemcpyPeerAsync(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS),
    cuMemPrefetchAsync(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS),
    cuMemAdvise(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT),
    cuStreamCreate(ADDRESS, JAVA_INT),
    cuStreamDestroy_v2(ADDRESS),
    cuStreamSynchronize(ADDRESS),
    cuStreamWaitEvent(ADDRESS, ADDRESS, JAVA_INT),
    cuEventCreate(ADDRESS, JAVA_INT),
    cuEventDestroy_v2(ADDRESS),
    cuEventRecord(ADDRESS, ADDRESS),
    cuEventQuery(ADDRESS),
    cuEventSynchronize(ADDRESS),
    cuEventElapsedTime(ADDRESS, ADDRESS, ADDRESS),
    cuModuleLoadDataEx(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS),
    cuModuleUnload(ADDRESS),
    cuModuleGetFunction(ADDRESS, ADDRESS, ADDRESS),
    cuModuleGetGlobal_v2(ADDRESS, ADDRESS, ADDRESS, ADDRESS),
    cuMemcpyHtoD_v2(JAVA_LONG, ADDRESS, JAVA_LONG),
    cuLaunchKernel(ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS,
            ADDRESS);

    private final FunctionDescriptor descriptor;

    CudaSymbol(MemoryLayout... parameters) {
        this.descriptor = FunctionDescriptor.of(JAVA_INT, parameters);
    }

    FunctionDescriptor descriptor() {
        return descriptor;
    }
}
