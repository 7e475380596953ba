package org.polygpu.sched;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SequencedSet;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.Coherence;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.export.Eviction;

/**
 * Allocates replicas within the devices' {@link DeviceBudgets}, evicting others when a computation's arrays do not fit
 * on its device.
 *
 * <p>Which replicas go: those of arrays the computation does not use and no unfinished computation on that device
 * uses, least recently used first; a replica whose array unfinished work on other devices uses (it may be the source
 * of their copies) only when the idle ones are not enough, after that work completed; when even that is not enough,
 * the host waits for the device's unfinished work and evicts among what it used. Before a replica is freed, every
 * unfinished computation using its array has completed. A replica holding the only valid copy (Modified) is first
 * copied back to the host on the device's host stream, charged to the link like any copy, and the host waits for the
 * copy; one that another location also holds, or that is stale, is just dropped. Nothing is lost: the array stays
 * valid where it was, and on the host after a write-back.
 *
 * <p>A computation whose distinct arrays together exceed its device's whole budget cannot run there: it fails before
 * any of its arrays changes, with a message naming it, the sizes and the budget. Not thread-safe: used by the
 * execution context's thread.
 */
final class Evictions {
    private final Backend backend;
    private final StreamPool pool;
    private final DeviceBudgets budgets;
    private final ScheduleRecording recording;
    private final Function<DeviceArray, MemorySegment> hostReplica;
    private final ObjLongConsumer<DeviceArray> completeHost;
    private final int host;

    /**
     * @param hostReplica  gives an array's host replica, allocating it on first use
     * @param completeHost makes the host's copy of an array whole from its backing device while the host holds dirty
     *                     chunks (for a computation id), as the write-back of that device's replica
     */
    Evictions(Backend backend, Schedule schedule, DeviceBudgets budgets, ScheduleRecording recording,
              Function<DeviceArray, MemorySegment> hostReplica,
              ObjLongConsumer<DeviceArray> completeHost) {
        this.completeHost = completeHost;
        this.backend = backend;
        this.pool = schedule.pool();
        this.budgets = budgets;
        this.recording = recording;
        this.hostReplica = hostReplica;
        this.host = schedule.deviceCount();
    }

    /**
     * Makes room on {@code c}'s device for the replicas of its arrays that are missing there, evicting others.
     *
     * @throws IllegalArgumentException naming {@code c}, its arrays' sizes and the device's budget when its arrays
     *                                  cannot fit on the device even alone
     */
    void reserve(Computation c) {
        int d = c.device();
        if (!budgets.isLimited(d) || fitsAsIs(c.accessArray(), d)) {
            return;
        }
        SequencedSet<DeviceArray> own = arrays(c);
        long total = 0;
        long missing = 0;
        for (DeviceArray a : own) {
            total += a.byteSize();
            missing += a.deviceReplica(d) == null ? a.byteSize() : 0;
        }
        if (total > budgets.capacity(d)) {
            throw tooLarge(c, own, total);
        }
        if (missing > budgets.free(d) && !makeRoom(c, own, missing)) {
            throw new IllegalStateException("device " + d + " has " + budgets.free(d) + " bytes free for "
                    + missing + " bytes of replicas after evicting every other replica");
        }
    }

    /**
     * Whether {@code accesses} fit on device {@code d} without evicting, counting an array as often as it appears (an
     * overestimate that allocates nothing, for the common case of plentiful memory).
     */
    private boolean fitsAsIs(ArrayAccess[] accesses, int d) {
        long total = 0;
        for (ArrayAccess a : accesses) {
            total += a.array().byteSize();
        }
        if (total <= budgets.free(d)) {
            return true;
        }
        long missing = 0;
        for (ArrayAccess a : accesses) {
            missing += a.array().deviceReplica(d) == null ? a.array().byteSize() : 0;
        }
        return total <= budgets.capacity(d) && missing <= budgets.free(d);
    }

    /**
     * Evicts replicas from {@code c}'s device until {@code bytes} of its budget are free: idle ones first, then ones
     * unfinished work on other devices uses, then, after the device's own unfinished work completed, any but
     * {@code own}. Says whether that many bytes are free.
     */
    private boolean makeRoom(Computation c, SequencedSet<DeviceArray> own, long bytes) {
        pool.pollAll();
        if (evict(c, own, bytes, false) || evict(c, own, bytes, true)) {
            return true;
        }
        for (Computation u : pool.unfinished()) {
            if (u.device() == c.device() && !u.isFinished()) {
                pool.await(u);
            }
        }
        return evict(c, own, bytes, true);
    }

    /**
     * Allocates {@code array}'s replica on {@code c}'s device after {@link #reserve}; when the backend is out of
     * memory all the same (its own allocations took some), evicts one replica more at a time, as {@link #reserve}
     * would, and tries again until nothing is left to evict.
     */
    DeviceBuffer allocate(Computation c, DeviceArray array) {
        int d = c.device();
        while (true) {
            try {
                DeviceBuffer b = backend.allocate(d, array.byteSize());
                array.setDeviceReplica(d, b);
                budgets.charge(d, array);
                return b;
            } catch (BackendException e) {
                long free = budgets.free(d);
                if (!budgets.isLimited(d) || !makeRoom(c, arrays(c), free + 1) && budgets.free(d) == free) {
                    throw e;
                }
            }
        }
    }

    /**
     * Evicts replicas from {@code c}'s device, least recently used first, until {@code bytes} are free; only idle
     * ones unless {@code evenUsedElsewhere}. Says whether that many bytes are free.
     */
    private boolean evict(Computation c, SequencedSet<DeviceArray> own, long bytes, boolean evenUsedElsewhere) {
        int d = c.device();
        List<Computation> unfinished = pool.unfinished();
        for (DeviceArray a : budgets.leastRecentlyUsed(d)) {
            if (budgets.free(d) >= bytes) {
                break;
            }
            if (own.contains(a)) {
                continue;
            }
            List<Computation> users = users(unfinished, a);
            if (users.stream().anyMatch(u -> u.device() == d) || !users.isEmpty() && !evenUsedElsewhere) {
                continue;
            }
            for (Computation u : users) {
                if (!u.isFinished()) {
                    pool.await(u);
                }
            }
            evict(c.id(), a, d);
        }
        return budgets.free(d) >= bytes;
    }

    /** Writes {@code array}'s replica on {@code d} back to the host if it is the only valid copy, then frees it. */
    private void evict(long computationId, DeviceArray array, int d) {
        Coherence coherence = array.coherence();
        // The backing device of the host's dirty chunks: the host gets the other chunks from it.
        boolean merge = coherence.hasHostDirty() && coherence.backing() == d;
        boolean writeBack = merge || !coherence.isPristine() && coherence.isOnlyValid(d);
        Eviction e = new Eviction(computationId, d, array.toString(), array.byteSize(), writeBack);
        if (merge) {
            completeHost.accept(array, computationId);
        } else if (writeBack) {
            StreamHandle stream = pool.hostStream(d);
            backend.copyDeviceToHost(array.deviceReplica(d), hostReplica.apply(array), array.byteSize(), stream,
                    new OperationLabel(computationId, e.name()));
            EventHandle done = pool.takeEvent(d);
            backend.recordEvent(done, stream);
            backend.synchronizeEvent(done);
            pool.releaseEvent(done);
            coherence.read(host);
            array.setReady(host, null, null);
        }
        DeviceBuffer replica = array.deviceReplica(d);
        array.setDeviceReplica(d, null);
        array.setReady(d, null, null);
        coherence.drop(d);
        budgets.release(d, array);
        backend.free(replica);
        recording.evicted(e);
    }

    private static List<Computation> users(List<Computation> unfinished, DeviceArray array) {
        List<Computation> users = new ArrayList<>();
        for (Computation u : unfinished) {
            for (ArrayAccess a : u.accessArray()) {
                if (a.array() == array) {
                    users.add(u);
                    break;
                }
            }
        }
        return users;
    }

    /** {@code c}'s distinct arrays, in argument order. */
    private static SequencedSet<DeviceArray> arrays(Computation c) {
        SequencedSet<DeviceArray> arrays = new LinkedHashSet<>();
        for (ArrayAccess a : c.accessArray()) {
            arrays.add(a.array());
        }
        return arrays;
    }

    private IllegalArgumentException tooLarge(Computation c, SequencedSet<DeviceArray> own, long total) {
        StringBuilder sizes = new StringBuilder();
        for (DeviceArray a : own) {
            sizes.append(sizes.isEmpty() ? "" : ", ").append(a).append(": ").append(a.byteSize()).append(" bytes");
        }
        String what = c.kind() == Computation.Kind.KERNEL ? "kernel '" + c.name() + "'" : c.name();
        return new IllegalArgumentException(what + " cannot run on device " + c.device() + ": its arrays need "
                + total + " bytes together (" + sizes + "), more than the " + budgets.capacity(c.device())
                + " bytes of memory the device has for arrays");
    }
}
