package org.polygpu.sched;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.sched.spi.LocationSet;

/**
 * The device memory replicas may use: per device, a budget (the backend's {@link Backend#replicaMemory} when the
 * context opened), the bytes the replicas allocated there hold, and the arrays with a replica there, listed from the
 * least to the most recently used, the order in which {@link Evictions} drops them.
 *
 * <p>A use costs one store: it stamps the array's replica with the next number of a counter
 * ({@link DeviceArray#used}); the order is sorted out only when replicas are to be evicted. A device whose budget is
 * {@link Long#MAX_VALUE} is unlimited (managed memory, which oversubscribes by itself): its replicas are counted but
 * never evicted. Not thread-safe: used by the execution context's thread.
 */
final class DeviceBudgets {
    private final long[] capacity;
    private final long[] used;
    private final LocationSet allDevices;
    private final List<LinkedHashSet<DeviceArray>> resident = new ArrayList<>();
    /** The least {@link #free} bytes of a limited device, {@link Long#MAX_VALUE} when none is limited. */
    private long leastFree;
    private long uses;

    /** Budgets of {@code capacity[d]} bytes for each device {@code d}. */
    DeviceBudgets(long... capacity) {
        this.capacity = capacity.clone();
        this.used = new long[capacity.length];
        this.allDevices = LocationSet.allDevices(capacity.length);
        for (int d = 0; d < capacity.length; d++) {
            if (capacity[d] < 0) {
                throw new IllegalArgumentException("device " + d + " has a budget of " + capacity[d] + " bytes");
            }
            resident.add(new LinkedHashSet<>());
        }
        updateLeastFree();
    }

    /** The budgets {@code backend} gives its first {@code deviceCount} devices now. */
    static DeviceBudgets of(Backend backend, int deviceCount) {
        long[] capacity = new long[deviceCount];
        for (int d = 0; d < deviceCount; d++) {
            capacity[d] = Math.max(0, backend.replicaMemory(d));
        }
        return new DeviceBudgets(capacity);
    }

    int deviceCount() {
        return capacity.length;
    }

    /** Whether replicas on {@code device} are ever evicted to stay within its budget. */
    boolean isLimited(int device) {
        return capacity[device] != Long.MAX_VALUE;
    }

    /** The bytes replicas may take on {@code device} in all. */
    long capacity(int device) {
        return capacity[device];
    }

    /** The bytes of {@code device}'s budget no replica holds. */
    long free(int device) {
        return capacity[device] - used[device];
    }

    /** The devices with at least {@code bytes} free or unlimited. */
    LocationSet devicesWithFree(long bytes) {
        if (bytes <= leastFree) {
            return allDevices;
        }
        LocationSet.Builder devices = new LocationSet.Builder();
        for (int d = 0; d < capacity.length; d++) {
            if (!isLimited(d) || free(d) >= bytes) {
                devices.add(d);
            }
        }
        return devices.build();
    }

    /** {@code array}'s replica was allocated on {@code device}: its bytes count there, as its most recent use. */
    void charge(int device, DeviceArray array) {
        if (!resident.get(device).add(array)) {
            throw new IllegalStateException(array + " already has a replica on device " + device);
        }
        used[device] += array.byteSize();
        touch(device, array);
        updateLeastFree();
    }

    /** Work used {@code array}'s replica on {@code device}: it becomes the most recently used there. */
    void touch(int device, DeviceArray array) {
        array.used(device, ++uses);
    }

    /** {@code array}'s replica on {@code device} was freed; nothing happens if it had none. */
    void release(int device, DeviceArray array) {
        if (resident.get(device).remove(array)) {
            used[device] -= array.byteSize();
            updateLeastFree();
        }
    }

    /** The arrays with a replica on {@code device}, least recently used first (a new list). */
    List<DeviceArray> leastRecentlyUsed(int device) {
        List<DeviceArray> arrays = new ArrayList<>(resident.get(device));
        arrays.sort(Comparator.comparingLong(a -> a.lastUse(device)));
        return arrays;
    }

    private void updateLeastFree() {
        long least = Long.MAX_VALUE;
        for (int d = 0; d < capacity.length; d++) {
            if (isLimited(d)) {
                least = Math.min(least, free(d));
            }
        }
        leastFree = least;
    }
}
