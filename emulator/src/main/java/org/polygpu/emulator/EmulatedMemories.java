package org.polygpu.emulator;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Optional;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.config.MemoryModel;

/**
 * The memory half of the emulated backend: each device's memory ({@link DeviceMemory}), the host allocations for
 * copies ({@link HostMemory}) and, under {@link MemoryModel#MANAGED}, managed memory ({@link ManagedMemory}), with the
 * {@link Backend} methods that allocate and free them, and the faults that kernels left in them ({@link KernelFaults}).
 * {@link EmulatedBackend} adds streams, events, copies and kernels.
 *
 * <p>Ownership: every buffer is owned by {@link #identity}, not by the backend, so that the cleaner that releases
 * them ({@link NativeRelease}) never reaches the backend. Not thread-safe, as the backend.
 */
abstract sealed class EmulatedMemories implements Backend permits EmulatedBackend {
    /** Owns every handle given out, instead of the backend, so that {@link NativeRelease} never reaches it. */
    final Object identity = new Object();
    final Handles handles = new Handles(identity);
    final DeviceMemory[] memories;
    final HostMemory hostMemory = new HostMemory();
    /** Managed memory; allocations from it are refused unless {@link #managed}. */
    final ManagedMemory managedMemory = new ManagedMemory();
    /** The faults of completed kernels, kept for the runtime ({@link #takeFault}). */
    final KernelFaults faults = new KernelFaults();
    private final boolean managed;

    EmulatedMemories(int devices, long capacity, MemoryModel model) {
        this.memories = DeviceMemory.forDevices(devices, capacity);
        this.managed = model == MemoryModel.MANAGED;
    }

    /** @throws BackendException when the backend was closed */
    abstract void checkOpen();

    @Override
    public Optional<BackendException> takeFault(long computationId) {
        return faults.take(computationId);
    }

    @Override
    public boolean hasPendingFaults() {
        return faults.hasAny();
    }

    @Override
    public int deviceCount() {
        return memories.length;
    }

    @Override
    public DeviceBuffer allocate(int device, long bytes) {
        checkOpen();
        checkDevice(device);
        return memories[device].allocate(identity, bytes);
    }

    @Override
    public void free(DeviceBuffer buffer) {
        checkOpen();
        EmulatedBuffer b = handles.anyBuffer(buffer);
        if (b.isManaged()) {
            managedMemory.free(b);
        } else {
            memories[b.device()].free(b);
        }
    }

    @Override
    public long freeMemory(int device) {
        checkDevice(device);
        return memories[device].free();
    }

    /** Zeroed host memory owned by the backend until {@link #freeHost} or {@link #close()}. */
    @Override
    public MemorySegment allocateHost(long bytes) {
        checkOpen();
        return hostMemory.allocate(bytes);
    }

    /** Releases host memory; copies already enqueued on it keep it alive until they complete. */
    @Override
    public void freeHost(MemorySegment segment) {
        checkOpen();
        hostMemory.free(Objects.requireNonNull(segment, "segment"));
    }

    /** Whether the backend was built with {@link MemoryModel#MANAGED}. */
    @Override
    public boolean managedMemory() {
        return managed;
    }

    /**
     * Zeroed managed memory with no page populated yet, charged to no device's capacity ({@link ManagedMemory}); its
     * pages move to a device by prefetches and kernel faults, and to the host by prefetches to {@code -1}.
     */
    @Override
    public DeviceBuffer allocateManaged(long bytes) {
        checkOpen();
        if (!managed) {
            throw new BackendException("managed memory needs an emulated backend built with MemoryModel=managed");
        }
        return managedMemory.allocate(identity, bytes);
    }

    /** The memory of a managed buffer itself: host reads and writes are seen by every later kernel. */
    @Override
    public MemorySegment hostView(DeviceBuffer buffer) {
        checkOpen();
        EmulatedBuffer b = handles.buffer(buffer, "host view");
        if (!b.isManaged()) {
            throw new BackendException(b + " is not managed memory: the host cannot address it");
        }
        return b.segment();
    }

    /** An emulated device's memory is off-heap memory of this process, which any host code may address. */
    @Override
    public DeviceAddressing deviceAddressing() {
        return DeviceAddressing.HOST_MEMORY;
    }

    /**
     * A device buffer's own memory: what its kernels read and write, so that bytes written into it are seen by every
     * kernel enqueued afterwards. Managed memory is refused: its pages have a residency, and its host view is
     * {@link #hostView}.
     */
    @Override
    public MemorySegment devicePointer(DeviceBuffer buffer) {
        checkOpen();
        EmulatedBuffer b = handles.buffer(buffer, "device pointer");
        if (b.isManaged()) {
            throw new BackendException(b + " is managed memory, which has no device pointer of one device: use its "
                    + "host view");
        }
        return b.segment();
    }

    /** What managed memory moved so far: migrations (prefetches) and kernels' page faults. */
    public ManagedMigrations managedMigrations() {
        return managedMemory.migrations();
    }

    void checkDevice(int device) {
        DeviceMemory.checkDevice(memories, device);
    }
}
