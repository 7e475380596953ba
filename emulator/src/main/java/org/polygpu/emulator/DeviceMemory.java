package org.polygpu.emulator;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.polygpu.backend.BackendException;
import org.polygpu.emulator.ptx.DeviceHeap;
import org.polygpu.emulator.ptx.GlobalMemory;

/**
 * The memory of one virtual device: accounting against the model's capacity, the set of live buffers, and their
 * device addresses.
 *
 * <p>Only the bytes requested are allocated on the host (no alignment padding is charged), so a device of 80 GiB
 * costs nothing until used.
 *
 * <p>Addresses: device {@code d}'s allocations start at {@link GlobalMemory#FIRST_ADDRESS} {@code + d * 2^40} and
 * are handed out upwards, 256-byte aligned, with at least 256 unused bytes after each buffer and never reused, so
 * that an overrun or a use after free lands outside every allocation and memcheck reports it. The device heap of
 * kernels' {@code malloc} ({@link DeviceHeap}, CUDA's default 8 MiB) lies at {@code + 2^39} in that range; it is
 * created when a kernel that uses it is first launched, and is not charged against the capacity.
 */
final class DeviceMemory {
    private static final long ALIGNMENT = 256;

    private final int device;
    private final long capacity;
    private final Set<EmulatedBuffer> buffers = new LinkedHashSet<>();
    private long used;
    private long nextAddress;
    private GlobalMemory view;
    private Arena heapArena;
    private DeviceHeap heap;
    private GlobalMemory heapView;

    DeviceMemory(int device, long capacity) {
        this.device = device;
        this.capacity = capacity;
        this.nextAddress = GlobalMemory.FIRST_ADDRESS + ((long) device << 40);
    }

    /** @throws IllegalArgumentException when {@code device} is not an index of {@code memories} */
    static void checkDevice(DeviceMemory[] memories, int device) {
        if (device < 0 || device >= memories.length) {
            throw new IllegalArgumentException("device " + device + " is out of range: valid devices are 0.."
                    + (memories.length - 1));
        }
    }

    /** One memory of {@code capacity} bytes for each of {@code count} devices, numbered from 0. */
    static DeviceMemory[] forDevices(int count, long capacity) {
        DeviceMemory[] memories = new DeviceMemory[count];
        for (int d = 0; d < count; d++) {
            memories[d] = new DeviceMemory(d, capacity);
        }
        return memories;
    }

    EmulatedBuffer allocate(Object owner, long bytes) {
        return allocate(owner, bytes, null, false);
    }

    /** An allocation with a description (e.g. a module variable) that kernels may only read if {@code constant}. */
    EmulatedBuffer allocate(Object owner, long bytes, String description, boolean constant) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        }
        if (bytes > capacity - used) {
            throw new BackendException("out of memory on device " + device + ": requested " + bytes
                    + " bytes, " + (capacity - used) + " bytes free of " + capacity);
        }
        EmulatedBuffer buffer = new EmulatedBuffer(owner, device, bytes, nextAddress, description, constant);
        nextAddress += (bytes + 2 * ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        used += bytes;
        buffers.add(buffer);
        view = null;
        heapView = null;
        return buffer;
    }

    void free(EmulatedBuffer buffer) {
        buffer.free();
        buffers.remove(buffer);
        used -= buffer.bytes();
        view = null;
        heapView = null;
    }

    long free() {
        return capacity - used;
    }

    /**
     * The address map a kernel sees: every live buffer, plus {@code extra} buffers that were freed but are still in
     * use by the kernel (they stay readable until it completes).
     */
    GlobalMemory view(List<EmulatedBuffer> extra) {
        return view(extra, false);
    }

    /** {@link #view(List)}, with the device heap when {@code withHeap} (the kernel calls malloc or free). */
    GlobalMemory view(List<EmulatedBuffer> extra, boolean withHeap) {
        if (withHeap && heap == null) {
            heapArena = Arena.ofShared();
            heap = new DeviceHeap(GlobalMemory.FIRST_ADDRESS + ((long) device << 40) + (1L << 39),
                    heapArena.allocate(DeviceHeap.DEFAULT_BYTES, 256));
        }
        if (!withHeap && view == null) {
            view = new GlobalMemory(regions(buffers));
        } else if (withHeap && heapView == null) {
            heapView = new GlobalMemory(regions(buffers), heap);
        }
        List<EmulatedBuffer> freed = extra.stream().filter(b -> !buffers.contains(b)).distinct().toList();
        if (freed.isEmpty()) {
            return withHeap ? heapView : view;
        }
        List<EmulatedBuffer> all = new ArrayList<>(buffers);
        all.addAll(freed);
        return new GlobalMemory(regions(all), withHeap ? heap : null);
    }

    private static List<GlobalMemory.Region> regions(Iterable<EmulatedBuffer> buffers) {
        List<GlobalMemory.Region> regions = new ArrayList<>();
        for (EmulatedBuffer b : buffers) {
            regions.add(new GlobalMemory.Region(b.address(), b.segment(), b.constant(), b.toString()));
        }
        return regions;
    }

    /** Releases every buffer still allocated; the backend is closing and all work has completed. */
    void releaseAll() {
        for (EmulatedBuffer b : List.copyOf(buffers)) {
            b.releaseMemory();
        }
        buffers.clear();
        used = 0;
        view = null;
        heapView = null;
        heap = null;
        if (heapArena != null) {
            heapArena.close();
            heapArena = null;
        }
    }
}
