package org.polygpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The CUDA driver API as Java methods: every {@code CUresult} goes through {@link #check}, which throws a
 * {@link CudaException} naming the C function and the error ({@code cuMemAlloc_v2 failed:
 * CUDA_ERROR_OUT_OF_MEMORY (2)}), the name coming from the driver's {@code cuGetErrorName}.
 *
 * <p>Handles ({@code CUcontext}, {@code CUstream}, {@code CUevent}, {@code CUmodule}, {@code CUfunction}) are
 * memory segments of length zero; device pointers are {@code long}. Calls that act on a device need its context
 * current on the calling thread ({@link #setCurrent}). Thread-safe as the driver is; the façade keeps no state
 * except which context it last made current on each thread, to skip redundant {@code cuCtxSetCurrent} calls.
 */
public final class CudaDriver {
    /** {@code CU_STREAM_NON_BLOCKING}: the stream does not synchronise with the legacy default stream. */
    public static final int STREAM_NON_BLOCKING = 1;
    /** {@code CU_EVENT_DEFAULT}: an event that records timing. */
    public static final int EVENT_DEFAULT = 0;
    /** {@code CU_EVENT_DISABLE_TIMING}: a cheaper event for ordering only. */
    public static final int EVENT_DISABLE_TIMING = 2;
    /** {@code CU_MEMHOSTALLOC_PORTABLE}: pinned memory usable from every context. */
    public static final int HOST_ALLOC_PORTABLE = 1;
    /** {@code CU_MEM_ATTACH_GLOBAL}: managed memory accessible from any stream on any device. */
    public static final int MEM_ATTACH_GLOBAL = 1;
    /** {@code CU_DEVICE_CPU}: the host, as a prefetch or advice target. */
    public static final int DEVICE_CPU = -1;

    /** Bumped whenever a primary context is released, so that no thread trusts its cached current context. */
    private static final AtomicLong CONTEXT_GENERATION = new AtomicLong();
    private static volatile CudaDriver system;

    private final CudaDriverApi api;
    private final CudaModules modules = new CudaModules(this);
    /** Per thread: {generation, address of the context this façade made current}. */
    private final ThreadLocal<long[]> current = ThreadLocal.withInitial(() -> new long[] {-1, 0});

    CudaDriver(CudaDriverApi api) {
        this.api = api;
    }

    /**
     * The driver of this machine, loaded and initialised once per JVM, with eager module loading unless the process
     * chose otherwise ({@link ModuleLoading}).
     *
     * @throws CudaException when {@code libcuda.so.1} is missing or {@code cuInit} fails (no device: 100; the
     *     toolkit's stub library instead of a driver: 34)
     */
    public static CudaDriver system() {
        CudaDriver d = system;
        if (d == null) {
            synchronized (CudaDriver.class) {
                d = system;
                if (d == null) {
                    ModuleLoading.preferEager();
                    d = new CudaDriver(FfmCudaDriverApi.open());
                    d.check(d.api.init(0), CudaSymbol.cuInit);
                    system = d;
                }
            }
        }
        return d;
    }

    CudaDriverApi api() {
        return api;
    }

    /** The one check every return code goes through. */
    void check(int code, CudaSymbol function) {
        if (code != 0) {
            throw failure(function, code, "");
        }
    }

    /** The exception for {@code function} returning {@code code}, with an optional explanation. */
    CudaException failure(CudaSymbol function, int code, String detail) {
        return CudaException.callFailed(function.name(), code, errorName(code), detail);
    }

    /** The C name of {@code code}: the driver's answer, else {@link CuResult}'s, else "unknown CUresult". */
    String errorName(int code) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nameOut = arena.allocate(ADDRESS);
            if (api.getErrorName(code, nameOut) == 0) {
                MemorySegment name = nameOut.get(ADDRESS, 0);
                if (!name.equals(MemorySegment.NULL)) {
                    return name.reinterpret(Integer.MAX_VALUE).getString(0);
                }
            }
        } catch (CudaException driverTooOld) {
            // cuGetErrorName is missing: the enum below still names the common codes.
        }
        return CuResult.of(code).map(Enum::name).orElse("unknown CUresult");
    }

    /** The driver's CUDA version as {@code major.minor}, such as {@code 12.4}. */
    public String version() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            check(api.driverGetVersion(out), CudaSymbol.cuDriverGetVersion);
            int v = out.get(JAVA_INT, 0);
            return v / 1000 + "." + v % 1000 / 10;
        }
    }

    public int deviceCount() {
        return intOut(out -> api.deviceGetCount(out), CudaSymbol.cuDeviceGetCount);
    }

    /** The {@code CUdevice} of ordinal {@code ordinal}. */
    public int device(int ordinal) {
        return intOut(out -> api.deviceGet(out, ordinal), CudaSymbol.cuDeviceGet);
    }

    public String deviceName(int device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocate(256);
            check(api.deviceGetName(name, 256, device), CudaSymbol.cuDeviceGetName);
            return name.getString(0);
        }
    }

    public int attribute(int device, CuDeviceAttribute attribute) {
        return intOut(out -> api.deviceGetAttribute(out, attribute.code(), device), CudaSymbol.cuDeviceGetAttribute);
    }

    public long totalMemory(int device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            check(api.deviceTotalMem(out, device), CudaSymbol.cuDeviceTotalMem_v2);
            return out.get(JAVA_LONG, 0);
        }
    }

    public boolean canAccessPeer(int device, int peer) {
        return intOut(out -> api.deviceCanAccessPeer(out, device, peer), CudaSymbol.cuDeviceCanAccessPeer) != 0;
    }

    /** Retains the device's primary context; pair with {@link #releasePrimaryContext}. */
    public MemorySegment retainPrimaryContext(int device) {
        return handleOut(out -> api.devicePrimaryCtxRetain(out, device), CudaSymbol.cuDevicePrimaryCtxRetain);
    }

    public void releasePrimaryContext(int device) {
        CONTEXT_GENERATION.incrementAndGet();
        check(api.devicePrimaryCtxRelease(device), CudaSymbol.cuDevicePrimaryCtxRelease_v2);
    }

    /** Makes {@code context} current on this thread, unless this façade already did and nothing was released. */
    public void setCurrent(MemorySegment context) {
        long[] mine = current.get();
        long generation = CONTEXT_GENERATION.get();
        if (mine[0] == generation && mine[1] == context.address()) {
            return;
        }
        check(api.ctxSetCurrent(context), CudaSymbol.cuCtxSetCurrent);
        mine[0] = generation;
        mine[1] = context.address();
    }

    /** Waits for all work of the current context. */
    public void synchronizeContext() {
        check(api.ctxSynchronize(), CudaSymbol.cuCtxSynchronize);
    }

    /**
     * Lets the current context access {@code peerContext}'s memory.
     *
     * @return false when access was already enabled
     */
    public boolean enablePeerAccess(MemorySegment peerContext) {
        int code = api.ctxEnablePeerAccess(peerContext, 0);
        if (code == CuResult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED.code()) {
            return false;
        }
        check(code, CudaSymbol.cuCtxEnablePeerAccess);
        return true;
    }

    /** Free and total bytes of the current context's device. */
    public MemoryInfo memoryInfo() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment free = arena.allocate(JAVA_LONG);
            MemorySegment total = arena.allocate(JAVA_LONG);
            check(api.memGetInfo(free, total), CudaSymbol.cuMemGetInfo_v2);
            return new MemoryInfo(free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0));
        }
    }

    /** Device memory in the current context. */
    public long allocate(long bytes) {
        return longOut(out -> api.memAlloc(out, bytes), CudaSymbol.cuMemAlloc_v2);
    }

    /** Managed memory ({@link #MEM_ATTACH_GLOBAL}), migrated between host and devices on demand. */
    public long allocateManaged(long bytes) {
        return longOut(out -> api.memAllocManaged(out, bytes, MEM_ATTACH_GLOBAL), CudaSymbol.cuMemAllocManaged);
    }

    public void free(long pointer) {
        check(api.memFree(pointer), CudaSymbol.cuMemFree_v2);
    }

    /** Pinned host memory of {@code bytes} ({@link #HOST_ALLOC_PORTABLE}), not initialised. */
    public MemorySegment allocateHost(long bytes) {
        return handleOut(out -> api.memHostAlloc(out, bytes, HOST_ALLOC_PORTABLE), CudaSymbol.cuMemHostAlloc)
                .reinterpret(bytes);
    }

    public void freeHost(MemorySegment host) {
        check(api.memFreeHost(host), CudaSymbol.cuMemFreeHost);
    }

    public void memsetAsync(long pointer, byte value, long bytes, MemorySegment stream) {
        check(api.memsetD8Async(pointer, value, bytes, stream), CudaSymbol.cuMemsetD8Async);
    }

    public void copyHostToDeviceAsync(long destination, MemorySegment source, long bytes, MemorySegment stream) {
        check(api.memcpyHtoDAsync(destination, source, bytes, stream), CudaSymbol.cuMemcpyHtoDAsync_v2);
    }

    public void copyDeviceToHostAsync(MemorySegment destination, long source, long bytes, MemorySegment stream) {
        check(api.memcpyDtoHAsync(destination, source, bytes, stream), CudaSymbol.cuMemcpyDtoHAsync_v2);
    }

    public void copyDeviceToDeviceAsync(long destination, long source, long bytes, MemorySegment stream) {
        check(api.memcpyDtoDAsync(destination, source, bytes, stream), CudaSymbol.cuMemcpyDtoDAsync_v2);
    }

    public void copyPeerAsync(long destination, MemorySegment destinationContext, long source,
            MemorySegment sourceContext, long bytes, MemorySegment stream) {
        check(api.memcpyPeerAsync(destination, destinationContext, source, sourceContext, bytes, stream),
                CudaSymbol.cuMemcpyPeerAsync);
    }

    /** Migrates managed memory to {@code device} ({@link #DEVICE_CPU} for the host) in stream order. */
    public void prefetchAsync(long pointer, long bytes, int device, MemorySegment stream) {
        check(api.memPrefetchAsync(pointer, bytes, device, stream), CudaSymbol.cuMemPrefetchAsync);
    }

    /** Gives the driver a {@link MemoryAdvice} about managed memory. */
    public void advise(long pointer, long bytes, MemoryAdvice advice, int device) {
        check(api.memAdvise(pointer, bytes, advice.code(), device), CudaSymbol.cuMemAdvise);
    }

    public MemorySegment createStream(int flags) {
        return handleOut(out -> api.streamCreate(out, flags), CudaSymbol.cuStreamCreate);
    }

    public void destroyStream(MemorySegment stream) {
        check(api.streamDestroy(stream), CudaSymbol.cuStreamDestroy_v2);
    }

    public void synchronizeStream(MemorySegment stream) {
        check(api.streamSynchronize(stream), CudaSymbol.cuStreamSynchronize);
    }

    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        check(api.streamWaitEvent(stream, event, 0), CudaSymbol.cuStreamWaitEvent);
    }

    public MemorySegment createEvent(int flags) {
        return handleOut(out -> api.eventCreate(out, flags), CudaSymbol.cuEventCreate);
    }

    public void destroyEvent(MemorySegment event) {
        check(api.eventDestroy(event), CudaSymbol.cuEventDestroy_v2);
    }

    public void recordEvent(MemorySegment event, MemorySegment stream) {
        check(api.eventRecord(event, stream), CudaSymbol.cuEventRecord);
    }

    /** Whether the event's work has completed: {@code CUDA_ERROR_NOT_READY} is "not yet", not an error. */
    public boolean queryEvent(MemorySegment event) {
        int code = api.eventQuery(event);
        if (code == CuResult.CUDA_ERROR_NOT_READY.code()) {
            return false;
        }
        check(code, CudaSymbol.cuEventQuery);
        return true;
    }

    public void synchronizeEvent(MemorySegment event) {
        check(api.eventSynchronize(event), CudaSymbol.cuEventSynchronize);
    }

    /** Milliseconds between two completed timing events (resolution about half a microsecond). */
    public float elapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_FLOAT);
            check(api.eventElapsedTime(out, start, end), CudaSymbol.cuEventElapsedTime);
            return out.get(JAVA_FLOAT, 0);
        }
    }

    /** The modules part of the API: loading with the JIT log, functions, launches. */
    public CudaModules modules() {
        return modules;
    }

    private int intOut(Call call, CudaSymbol function) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            check(call.invoke(out), function);
            return out.get(JAVA_INT, 0);
        }
    }

    private long longOut(Call call, CudaSymbol function) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            check(call.invoke(out), function);
            return out.get(JAVA_LONG, 0);
        }
    }

    private MemorySegment handleOut(Call call, CudaSymbol function) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            check(call.invoke(out), function);
            return out.get(ADDRESS, 0);
        }
    }

    /** A driver call writing one value to {@code out}. */
    @FunctionalInterface
    private interface Call {
        int invoke(MemorySegment out);
    }

    /** Free and total device memory in bytes. */
    public record MemoryInfo(long free, long total) {
    }

    /** {@code CUmem_advise} values, with their C names. */
    public enum MemoryAdvice {
        CU_MEM_ADVISE_SET_READ_MOSTLY(1),
        CU_MEM_ADVISE_UNSET_READ_MOSTLY(2),
        CU_MEM_ADVISE_SET_PREFERRED_LOCATION(3),
        CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION(4),
        CU_MEM_ADVISE_SET_ACCESSED_BY(5),
        CU_MEM_ADVISE_UNSET_ACCESSED_BY(6);

        private final int code;

        MemoryAdvice(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }
    }
}
