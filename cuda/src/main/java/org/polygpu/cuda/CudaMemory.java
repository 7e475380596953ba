package org.polygpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.MemoryModel;

/**
 * The CUDA backend's memory: device buffers and pinned host memory.
 *
 * <p>A device buffer is a {@code cuMemAlloc} allocation or, under {@link MemoryModel#MANAGED}, a
 * {@code cuMemAllocManaged} one advised to prefer its device and prefetched there; either way it is zero-filled on
 * the device's internal stream, and that stream synchronised, before it is handed out. Zero-byte buffers allocate one
 * byte, as {@code cuMemAlloc} refuses 0.
 *
 * <p>Under {@code managed} the scheduler asks for one {@link #allocateManaged} allocation per array instead, which
 * every device and the host address. Before each computation that the scheduler does not know it valid for, it is
 * advised to prefer the computation's device and prefetched there on the computation's stream
 * ({@link #prefetch(DeviceBuffer, long, long, int, StreamHandle)}), as GrCUDA's {@code MemAdvisePolicy=preferred}
 * with input prefetching; host accesses prefetch their bytes to the host.
 *
 * <p>Host memory is portable pinned memory ({@code cuMemHostAlloc}) whose segment is tied to a shared arena that
 * {@link #freeHost} closes, so a use after free fails in Java instead of corrupting memory. Everything handed out is
 * in the {@link CudaRegistry} until it is freed. Not thread-safe (the backend's single caller); the backend checks
 * that it is open before each call.
 */
final class CudaMemory {
    /** Device memory left out of the replicas' budget at most ({@link #replicaMemory}). */
    private static final long REPLICA_MARGIN_BYTES = 256L << 20;

    private final CudaBackend owner;
    private final CudaDriver driver;
    private final CudaDevices devices;
    private final CudaRegistry registry;
    private final MemoryModel model;

    CudaMemory(CudaBackend owner, CudaDriver driver, CudaDevices devices, CudaRegistry registry, MemoryModel model) {
        this.owner = owner;
        this.driver = driver;
        this.devices = devices;
        this.registry = registry;
        this.model = model;
    }

    DeviceBuffer allocate(int device, long bytes) {
        devices.check(device);
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        }
        devices.current(device);
        long size = Math.max(bytes, 1); // cuMemAlloc refuses 0 bytes
        long pointer;
        try {
            pointer = model == MemoryModel.MANAGED ? driver.allocateManaged(size) : driver.allocate(size);
        } catch (CudaException e) {
            throw e.withDetail("allocating " + bytes + " bytes on device " + device + " ("
                    + devices.properties(device).name() + ", " + driver.memoryInfo().free() + " bytes free)");
        }
        CudaHandles.Buffer b = new CudaHandles.Buffer(owner, device, bytes, pointer);
        registry.add(b);
        try {
            MemorySegment stream = devices.internalStream(device);
            if (model == MemoryModel.MANAGED) {
                driver.advise(pointer, size, CudaDriver.MemoryAdvice.CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
                        devices.cuDevice(device));
                driver.prefetchAsync(pointer, size, devices.cuDevice(device), stream);
            }
            driver.memsetAsync(pointer, (byte) 0, size, stream);
            driver.synchronizeStream(stream);
        } catch (RuntimeException e) {
            free(b);
            throw e;
        }
        return b;
    }

    /** One zero-filled {@code cuMemAllocManaged} allocation (attached globally) that every device addresses. */
    DeviceBuffer allocateManaged(long bytes) {
        if (model != MemoryModel.MANAGED) {
            throw new BackendException("managed memory needs the CUDA backend opened with MemoryModel=managed");
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        }
        devices.current(0);
        long size = Math.max(bytes, 1);
        long pointer;
        try {
            pointer = driver.allocateManaged(size);
        } catch (CudaException e) {
            throw e.withDetail("allocating " + bytes + " bytes of managed memory");
        }
        CudaHandles.Buffer b = new CudaHandles.Buffer(owner, DeviceBuffer.MANAGED, bytes, pointer);
        registry.add(b);
        try {
            MemorySegment stream = devices.internalStream(0);
            driver.memsetAsync(pointer, (byte) 0, size, stream);
            driver.synchronizeStream(stream);
        } catch (RuntimeException e) {
            free(b);
            throw e;
        }
        return b;
    }

    /** A device buffer's {@code CUdeviceptr} as a segment of its size, which the host must not dereference. */
    MemorySegment devicePointer(DeviceBuffer buffer) {
        CudaHandles.Buffer b = registry.buffer(buffer, "device pointer");
        if (b.device == DeviceBuffer.MANAGED) {
            throw new BackendException(b + " is managed memory, which has no device pointer of one device: use its "
                    + "host view");
        }
        return MemorySegment.ofAddress(b.pointer).reinterpret(b.bytes);
    }

    /** The host's view of managed memory: its pointer, which the host may dereference once its bytes are there. */
    MemorySegment hostView(DeviceBuffer buffer) {
        CudaHandles.Buffer b = registry.buffer(buffer, "host view");
        if (b.device != DeviceBuffer.MANAGED) {
            throw new BackendException(b + " is not managed memory: the host cannot address it");
        }
        return MemorySegment.ofAddress(b.pointer).reinterpret(b.bytes);
    }

    /**
     * Migrates bytes {@code offset..offset+bytes} of managed memory to {@code device} ({@code -1}: the host) in stream
     * order, advising the whole allocation to prefer a device first when the destination is one.
     */
    void prefetch(DeviceBuffer buffer, long offset, long bytes, int device, StreamHandle stream) {
        CudaHandles.Buffer b = registry.buffer(buffer, "prefetch");
        CudaHandles.Stream s = registry.stream(stream);
        if (b.device != DeviceBuffer.MANAGED) {
            prefetch(buffer, device, stream);
            return;
        }
        if (offset < 0 || bytes < 0 || offset > b.bytes - bytes) {
            throw new BackendException("cannot prefetch bytes " + offset + ".." + (offset + bytes) + " of " + b);
        }
        if (bytes == 0) {
            return;
        }
        devices.current(s.device);
        if (device >= 0) {
            driver.advise(b.pointer, Math.max(b.bytes, 1), CudaDriver.MemoryAdvice.CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
                    devices.cuDevice(device));
        }
        driver.prefetchAsync(b.pointer + offset, bytes, device < 0 ? CudaDriver.DEVICE_CPU : devices.cuDevice(device),
                s.handle);
    }

    void free(DeviceBuffer buffer) {
        CudaHandles.Buffer b = registry.buffer(buffer, "free");
        devices.current(Math.max(b.device, 0));
        registry.remove(b);
        driver.free(b.pointer);
    }

    /** Migrates a managed buffer to {@code device} ({@code -1}: the host) in stream order; nothing when explicit. */
    void prefetch(DeviceBuffer buffer, int device, StreamHandle stream) {
        CudaHandles.Buffer b = registry.buffer(buffer, "prefetch");
        CudaHandles.Stream s = registry.stream(stream);
        if (model == MemoryModel.MANAGED) {
            devices.current(s.device);
            driver.prefetchAsync(b.pointer, Math.max(b.bytes, 1), device < 0 ? CudaDriver.DEVICE_CPU
                    : devices.cuDevice(device), s.handle);
        }
    }

    /**
     * Under {@code explicit}, the memory free now ({@code cuMemGetInfo}) less a margin for what the backend allocates
     * later on the device (modules, streams, cuBLAS workspaces, the driver's own): {@value #REPLICA_MARGIN_BYTES}
     * bytes, or an eighth of the free memory when that is smaller. Under {@code managed}, unlimited: managed memory
     * oversubscribes the device by itself, paging to the host.
     */
    long replicaMemory(int device) {
        if (model == MemoryModel.MANAGED) {
            return Long.MAX_VALUE;
        }
        long free = freeMemory(device);
        return free - Math.min(REPLICA_MARGIN_BYTES, free / 8);
    }

    long freeMemory(int device) {
        devices.check(device);
        devices.current(device);
        return driver.memoryInfo().free();
    }

    MemorySegment allocateHost(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes of host memory");
        }
        devices.current(0);
        MemorySegment pinned = driver.allocateHost(Math.max(bytes, 1));
        Arena arena = Arena.ofShared();
        MemorySegment host = pinned.reinterpret(bytes, arena, null);
        host.fill((byte) 0);
        registry.addHost(host, arena);
        return host;
    }

    void freeHost(MemorySegment host) {
        Arena arena = registry.removeHost(Objects.requireNonNull(host, "host"));
        devices.current(0);
        arena.close();
        driver.freeHost(MemorySegment.ofAddress(host.address()));
    }
}
