package org.polygpu.sched;

import java.util.ArrayList;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;

/**
 * The arrays of one execution context: their numbering, the size check when one is made, and the release of their
 * replicas, one at a time ({@code free}) or all at once when the context closes. Which computations must finish first
 * is the caller's concern. Not thread-safe: used by the execution context's thread.
 */
final class ContextArrays {
    private final Backend backend;
    private final int deviceCount;
    private final DeviceBudgets budgets;
    private final ArrayList<DeviceArray> live = new ArrayList<>();
    private long nextId;

    ContextArrays(Backend backend, DeviceBudgets budgets) {
        this.backend = backend;
        this.deviceCount = budgets.deviceCount();
        this.budgets = budgets;
    }

    /** A new array of zeros, no larger than a device's memory; replicas are allocated when first used. */
    DeviceArray create(ElementType type, long... shape) {
        DeviceArray a = new DeviceArray(nextId++, type, shape, deviceCount);
        long capacity = backend.deviceProperties(0).totalMemory();
        if (a.byteSize() > capacity) {
            throw new IllegalArgumentException(a + " is too large: " + a.byteSize() + " bytes, more than the "
                    + capacity + " bytes of device memory");
        }
        live.add(a);
        return a;
    }

    /** Frees every replica of {@code array} and marks it freed. */
    void release(DeviceArray array) {
        freeReplicas(array);
        live.remove(array);
    }

    /** Ends direct host access to every live array: the host's next element access must reach the scheduler. */
    void revokeDirectAccess() {
        for (DeviceArray a : live) {
            a.revokeDirectHostAccess();
        }
    }

    /** Frees the replicas of every array still live (the context is closing and all work has completed). */
    void releaseAll() {
        for (DeviceArray a : live) {
            freeReplicas(a);
        }
        live.clear();
    }

    private void freeReplicas(DeviceArray array) {
        if (array.managedBuffer() != null) {
            backend.free(array.managedBuffer()); // one allocation, every location's replica and the host's view
            array.markFreed();
            return;
        }
        for (int d = 0; d < deviceCount; d++) {
            DeviceBuffer b = array.deviceReplica(d);
            if (b != null) {
                budgets.release(d, array);
                backend.free(b);
            }
        }
        if (array.hostReplica() != null) {
            backend.freeHost(array.hostReplica());
        }
        array.markFreed();
    }
}
