package org.polygpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.StreamHandle;

/**
 * Everything a {@link CudaBackend} has handed out and not yet had back: buffers, pinned host allocations, streams,
 * events and modules. It resolves handles given to the backend (refusing foreign or released ones with a
 * {@link BackendException}) and releases whatever is left when the backend closes. Not thread-safe.
 */
final class CudaRegistry {
    private final CudaBackend owner;
    private final CudaDevices devices;
    private final Set<CudaHandles.Buffer> buffers = new LinkedHashSet<>();
    private final Map<Long, Arena> hostAllocations = new HashMap<>();
    private final Set<CudaHandles.Stream> streams = new LinkedHashSet<>();
    private final Set<CudaHandles.Event> events = new LinkedHashSet<>();
    private final Set<CudaHandles.Module> modules = new LinkedHashSet<>();

    /**
     * @param owner   the backend whose handles this registry accepts
     * @param devices its devices, whose contexts are made current to release what is left
     */
    CudaRegistry(CudaBackend owner, CudaDevices devices) {
        this.owner = owner;
        this.devices = devices;
    }

    void add(CudaHandles.Buffer b) {
        buffers.add(b);
    }

    void add(CudaHandles.Stream s) {
        streams.add(s);
    }

    void add(CudaHandles.Event e) {
        events.add(e);
    }

    void add(CudaHandles.Module m) {
        modules.add(m);
    }

    void addHost(MemorySegment host, Arena arena) {
        hostAllocations.put(host.address(), arena);
    }

    /** Forgets a host allocation and returns its arena; fails if it was not handed out or already freed. */
    Arena removeHost(MemorySegment host) {
        Arena arena = hostAllocations.remove(host.address());
        if (arena == null) {
            throw new BackendException("freeHost: " + host + " was not returned by allocateHost or was freed");
        }
        return arena;
    }

    void remove(CudaHandles.Buffer b) {
        b.freed = true;
        buffers.remove(b);
    }

    void remove(CudaHandles.Stream s) {
        s.destroyed = true;
        streams.remove(s);
    }

    void remove(CudaHandles.Event e) {
        e.destroyed = true;
        events.remove(e);
    }

    CudaHandles.Buffer buffer(DeviceBuffer buffer, String role) {
        if (!(buffer instanceof CudaHandles.Buffer b) || b.owner != owner) {
            throw new BackendException(role + ": " + buffer + " is not a buffer of this CUDA backend");
        }
        if (b.freed) {
            throw new BackendException(role + ": the " + b + " was freed");
        }
        return b;
    }

    CudaHandles.Stream stream(StreamHandle stream) {
        if (!(stream instanceof CudaHandles.Stream s) || s.owner != owner || s.destroyed) {
            throw new BackendException("not a live stream of this CUDA backend: " + stream);
        }
        return s;
    }

    CudaHandles.Event event(EventHandle event) {
        if (!(event instanceof CudaHandles.Event e) || e.owner != owner || e.destroyed) {
            throw new BackendException("not a live event of this CUDA backend: " + event);
        }
        return e;
    }

    CudaHandles.Module module(ModuleHandle module) {
        if (!(module instanceof CudaHandles.Module m) || m.owner != owner || m.unloaded) {
            throw new BackendException("not a loaded module of this CUDA backend: " + module);
        }
        return m;
    }

    /**
     * The device pointer of a kernel argument that is not a scalar: a buffer's, or a buffer's plus an offset.
     *
     * @throws BackendException naming the argument when it is not a live buffer of this backend on {@code device}
     */
    long kernelPointer(String kernel, int index, Object argument, int device) {
        if (argument instanceof BufferOffset o) {
            return kernelPointer(kernel, index, o.buffer(), device) + o.bytes();
        }
        if (!(argument instanceof CudaHandles.Buffer b) || b.owner != owner || b.freed) {
            throw new BackendException("argument " + (index + 1) + " of kernel '" + kernel + "' is "
                    + (argument instanceof DeviceBuffer ? "a buffer of another backend or freed" : "a "
                    + argument.getClass().getSimpleName()) + "; expected a buffer or a Byte, Short, Integer, "
                    + "Long, Float or Double");
        }
        if (b.device != device && b.device != DeviceBuffer.MANAGED) {
            throw new BackendException("argument " + (index + 1) + " of kernel '" + kernel + "' is a " + b
                    + " but the kernel runs on device " + device);
        }
        return b.pointer;
    }

    /**
     * Releases everything still registered, continuing past failures; returns {@code failure} with every further
     * failure added (the first becomes the result when {@code failure} is null).
     */
    RuntimeException releaseAll(CudaDriver driver, RuntimeException failure) {
        List<Runnable> releases = new ArrayList<>();
        for (CudaHandles.Event e : events) {
            releases.add(() -> {
                devices.current(e.device);
                driver.destroyEvent(e.handle);
            });
        }
        for (CudaHandles.Stream s : streams) {
            releases.add(() -> {
                devices.current(s.device);
                driver.destroyStream(s.handle);
            });
        }
        for (CudaHandles.Module m : modules) {
            releases.add(() -> {
                devices.current(m.device);
                m.unloaded = true;
                driver.modules().unload(m.handle);
            });
        }
        for (CudaHandles.Buffer b : buffers) {
            releases.add(() -> {
                devices.current(Math.max(b.device, 0)); // managed memory (device -1) is freed from device 0's context
                b.freed = true;
                driver.free(b.pointer);
            });
        }
        for (Map.Entry<Long, Arena> h : hostAllocations.entrySet()) {
            releases.add(() -> {
                h.getValue().close();
                driver.freeHost(MemorySegment.ofAddress(h.getKey()));
            });
        }
        for (Runnable r : releases) {
            try {
                r.run();
            } catch (RuntimeException e) {
                failure = add(failure, e);
            }
        }
        events.forEach(e -> e.destroyed = true);
        streams.forEach(s -> s.destroyed = true);
        events.clear();
        streams.clear();
        modules.clear();
        buffers.clear();
        hostAllocations.clear();
        return failure;
    }

    static RuntimeException add(RuntimeException failure, RuntimeException next) {
        if (failure == null) {
            return next;
        }
        failure.addSuppressed(next);
        return failure;
    }
}
