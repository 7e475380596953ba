package org.polygpu.sched;

import java.lang.foreign.MemorySegment;
import java.util.BitSet;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.Coherence;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.array.Elements;
import org.polygpu.array.Producer;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.topology.BandwidthMatrix;

/**
 * Keeps replicas coherent at schedule time: allocates them lazily, copies a missing one from the fastest valid
 * location (by the bandwidth matrix) after the work that made that location ready, and applies the coherence
 * transitions of each access. Under managed memory it hands every array to {@link ManagedArrays} instead, which
 * copies nothing.
 *
 * <p>Host chunks the host wrote ({@link Coherence}: dirty, with a backing device holding the rest) are merged before
 * anything uses the array whole: a computation's device gets the backing replica (copied when it is another device)
 * and then the dirty chunks from the host, one copy per run of them, on the computation's stream
 * ({@link #prepare}); the host, for a whole read or a write-back, gets the chunks it lacks from the backing device
 * ({@link #completeHost}). Either way only the chunks that differ cross the host's link. Not thread-safe.
 */
final class ReplicaTransfers {
    private final Backend backend;
    private final StreamPool pool;
    private final BandwidthMatrix bandwidth;
    private final int host;
    private final boolean labelled;
    private final boolean prefetch;
    private final DeviceBudgets budgets;
    private final Evictions evictions;
    /** The arrays' one allocation each when the backend has managed memory, else null. */
    private final ManagedArrays managed;

    /**
     * @param labelled whether copies get descriptive labels (only worth building when a timeline is recorded)
     * @param prefetch whether each replica is also prefetched to its device before the work ({@code InputPrefetch});
     *                 the backend decides whether its memory migrates at all
     * @param budgets   the devices' memory for replicas, within which they are allocated, evicting others
     * @param recording where evictions are recorded for the trace
     */
    ReplicaTransfers(Backend backend, Schedule schedule, BandwidthMatrix bandwidth, boolean labelled,
                     boolean prefetch, DeviceBudgets budgets, ScheduleRecording recording) {
        this.labelled = labelled;
        this.prefetch = prefetch;
        this.backend = backend;
        this.pool = schedule.pool();
        this.bandwidth = bandwidth;
        this.host = bandwidth.hostIndex();
        this.budgets = budgets;
        this.evictions = new Evictions(backend, schedule, budgets, recording, this::hostReplica,
                this::completeHost);
        this.managed = backend.managedMemory() ? new ManagedArrays(backend, pool, labelled) : null;
    }

    /** Whether arrays are managed memory, which host accesses migrate by byte range ({@link #migrateToHost}). */
    boolean managed() {
        return managed != null;
    }

    /** Under managed memory: migrates bytes of {@code array} to the host and waits; the host view is then current. */
    void migrateToHost(DeviceArray array, long offset, long bytes, long computationId) {
        managed.toHost(array, offset, bytes, computationId);
    }

    /**
     * Makes every array of {@code c} valid on its device (copies enqueued on its stream) and updates coherence; first
     * allocates the replicas missing there, making room for them ({@link Evictions}), so that a computation whose
     * arrays do not fit fails before any of them changed state.
     *
     * @throws IllegalArgumentException when {@code c}'s arrays cannot fit on its device
     * @throws org.polygpu.backend.BackendException when the device is out of memory all the same
     */
    void prepare(Computation c) {
        if (managed != null) {
            managed.prepare(c);
            return;
        }
        int d = c.device();
        StreamSlot slot = c.slot();
        evictions.reserve(c);
        for (ArrayAccess a : c.accessArray()) {
            if (a.array().deviceReplica(d) == null) {
                evictions.allocate(c, a.array());
            }
            budgets.touch(d, a.array());
        }
        // The event of the last copy, while nothing else was enqueued after it: when the inputs are all there.
        EventHandle lastCopied = null;
        for (ArrayAccess a : c.accessArray()) {
            DeviceArray array = a.array();
            array.revokeDirectHostAccess();
            Coherence coherence = array.coherence();
            DeviceBuffer replica = array.deviceReplica(d);
            if (coherence.hasHostDirty()) {
                lastCopied = mergeHostChunks(c, array, d);
            }
            if (coherence.isValid(d)) {
                lastCopied = waitReady(array, d, slot.handle) ? null : lastCopied;
            } else if (coherence.isPristine()) {
                coherence.read(d);
            } else {
                int src = fastestSource(coherence.validLocations(), d);
                waitReady(array, src, slot.handle);
                OperationLabel label = new OperationLabel(c.id(), labelled ? "copy " + array : "copy");
                if (src == host) {
                    backend.copyHostToDevice(array.hostReplica(), replica, array.byteSize(), slot.handle, label);
                } else {
                    backend.copyDeviceToDevice(array.deviceReplica(src), replica, array.byteSize(), slot.handle,
                            label);
                }
                EventHandle copied = pool.takeEvent(d);
                backend.recordEvent(copied, slot.handle);
                c.addCopyEvent(copied);
                lastCopied = copied;
                coherence.read(d);
                array.setReady(d, c, copied);
            }
            if (prefetch) {
                backend.prefetch(replica, d, slot.handle);
                lastCopied = null;
            }
            if (a.access().isReadOnly()) {
                coherence.read(d);
            } else {
                coherence.write(d);
                array.setReady(d, c, c.event());
            }
        }
        c.inputsCopied(lastCopied);
    }

    /**
     * Makes {@code d}'s replica of {@code array} the only valid copy, whole, for {@code c}: the backing device's
     * replica (copied when it is another device) with the host's dirty chunks copied over it, on {@code c}'s stream.
     * Returns the event after the copies.
     */
    private EventHandle mergeHostChunks(Computation c, DeviceArray array, int d) {
        Coherence coherence = array.coherence();
        StreamHandle stream = c.slot().handle;
        DeviceBuffer replica = array.deviceReplica(d);
        int backing = coherence.backing();
        waitReady(array, backing, stream);
        if (backing != d) {
            backend.copyDeviceToDevice(array.deviceReplica(backing), replica, array.byteSize(), stream,
                    new OperationLabel(c.id(), labelled ? "copy " + array : "copy"));
        }
        MemorySegment host = array.hostReplica();
        BitSet dirty = coherence.hostDirtyChunks();
        ChunkRuns.forEach(0, dirty.length(), k -> dirty.get((int) k), HostAccesses.CHUNK_BYTES, array.byteSize(),
                (offset, bytes) -> backend.copyHostToDevice(host.asSlice(offset, bytes), replica, offset, bytes,
                        stream, new OperationLabel(c.id(), labelled ? "copy " + array + " bytes " + offset + ".."
                        + (offset + bytes) + " from host" : "copy")));
        EventHandle copied = pool.takeEvent(d);
        backend.recordEvent(copied, stream);
        c.addCopyEvent(copied);
        coherence.flushedHostChunks(d);
        array.setReady(d, c, copied);
        return copied;
    }

    /**
     * Makes the host's copy whole while it holds dirty chunks: the chunks it lacks are copied from the backing device,
     * one copy per run, on that device's host stream, and waited for; the host then holds the only valid copy.
     */
    void completeHost(DeviceArray array, long computationId) {
        Coherence coherence = array.coherence();
        int backing = coherence.backing();
        MemorySegment hostCopy = hostReplica(array);
        StreamHandle stream = pool.hostStream(backing);
        waitReady(array, backing, stream);
        ChunkRuns.forEach(0, ChunkRuns.count(array.byteSize(), HostAccesses.CHUNK_BYTES),
                k -> !coherence.isHostChunkValid(k), HostAccesses.CHUNK_BYTES, array.byteSize(),
                (offset, bytes) -> backend.copyDeviceToHost(array.deviceReplica(backing), offset,
                        hostCopy.asSlice(offset, bytes), bytes, stream, new OperationLabel(computationId, labelled
                        ? "copy " + array + " bytes " + offset + ".." + (offset + bytes) + " to host"
                        : "copy to host")));
        EventHandle done = pool.takeEvent(backing);
        backend.recordEvent(done, stream);
        backend.synchronizeEvent(done);
        pool.releaseEvent(done);
        coherence.hostCompleted();
        array.setReady(host, null, null);
    }

    /**
     * Makes the host replica valid, copying it back from the fastest valid device on that device's host stream
     * and waiting for the copy (only the chunks it lacks while it holds dirty ones). Returns the host replica.
     */
    MemorySegment fetchToHost(DeviceArray array, long computationId) {
        Coherence coherence = array.coherence();
        if (managed != null) {
            MemorySegment view = managed.toHost(array, 0, array.byteSize(), computationId);
            coherence.read(host);
            return view;
        }
        MemorySegment hostReplica = hostReplica(array);
        if (coherence.hasHostDirty()) {
            completeHost(array, computationId);
            return hostReplica;
        }
        if (coherence.isValid(host) || coherence.isPristine()) {
            coherence.read(host);
            return hostReplica;
        }
        int src = fastestSource(coherence.validLocations(), host);
        StreamHandle stream = pool.hostStream(src);
        waitReady(array, src, stream);
        backend.copyDeviceToHost(array.deviceReplica(src), hostReplica, array.byteSize(), stream,
                new OperationLabel(computationId, "copy " + array + " to host"));
        EventHandle done = pool.takeEvent(src);
        backend.recordEvent(done, stream);
        backend.synchronizeEvent(done);
        pool.releaseEvent(done);
        coherence.read(host);
        array.setReady(host, null, null);
        return hostReplica;
    }

    /**
     * Makes bytes {@code offset..offset+bytes} of the host replica valid (a chunk, which the caller records in the
     * array's coherence), copying them from the fastest valid device on its host stream and waiting for the copy.
     * The host is not valid as a whole, so some device is.
     */
    void fetchRangeToHost(DeviceArray array, long offset, long bytes, long computationId) {
        if (managed != null) {
            managed.toHost(array, offset, bytes, computationId);
            return;
        }
        MemorySegment hostReplica = hostReplica(array);
        int src = fastestSource(array.coherence().validLocations(), host);
        StreamHandle stream = pool.hostStream(src);
        waitReady(array, src, stream);
        backend.copyDeviceToHost(array.deviceReplica(src), offset, hostReplica.asSlice(offset, bytes), bytes, stream,
                new OperationLabel(computationId, labelled ? "copy " + array + " bytes " + offset + ".."
                        + (offset + bytes) + " to host" : "copy to host"));
        EventHandle done = pool.takeEvent(src);
        backend.recordEvent(done, stream);
        backend.synchronizeEvent(done);
        pool.releaseEvent(done);
    }

    /**
     * Element {@code index}, read where it is valid: from the host replica, as zero from an array never written,
     * else copied alone from the fastest valid device after the work that made that replica ready.
     */
    Object readElement(DeviceArray array, long index, long computationId) {
        Coherence coherence = array.coherence();
        ElementType type = array.elementType();
        if (managed != null) {
            MemorySegment view = managed.toHost(array, index * type.bytes(), type.bytes(), computationId);
            return Elements.get(view, type, index);
        }
        if (coherence.isValid(host) && array.hostReplica() != null) {
            return Elements.get(array.hostReplica(), type, index);
        }
        if (coherence.isPristine()) {
            return Elements.get(MemorySegment.ofArray(new long[1]), type, 0);
        }
        int src = fastestSource(coherence.validLocations(), host);
        StreamHandle stream = pool.hostStream(src);
        waitReady(array, src, stream);
        MemorySegment element = backend.allocateHost(type.bytes());
        try {
            backend.copyDeviceToHost(array.deviceReplica(src), index * type.bytes(), element, type.bytes(), stream,
                    new OperationLabel(computationId, "read " + array + "[" + index + "]"));
            EventHandle done = pool.takeEvent(src);
            backend.recordEvent(done, stream);
            backend.synchronizeEvent(done);
            pool.releaseEvent(done);
            return Elements.get(element, type, 0);
        } finally {
            backend.freeHost(element);
        }
    }

    /**
     * Writes the element {@code element} holds at byte {@code offset} of the device replica nearest the host alone,
     * waiting for the copy; that replica becomes the only valid copy (Modified), the others Invalid. For an element
     * write to an array too large to bring to the host, when some device holds it.
     */
    void writeElementOnDevice(DeviceArray array, long offset, MemorySegment element, long computationId) {
        Coherence coherence = array.coherence();
        int dst = fastestSource(coherence.validLocations().without(host), host);
        StreamHandle stream = pool.hostStream(dst);
        waitReady(array, dst, stream);
        MemorySegment staged = backend.allocateHost(element.byteSize());
        try {
            staged.copyFrom(element);
            backend.copyHostToDevice(staged, array.deviceReplica(dst), offset, element.byteSize(), stream,
                    new OperationLabel(computationId, labelled ? "write " + array + " bytes " + offset + ".."
                            + (offset + element.byteSize()) + " on device " + dst : "write"));
            EventHandle done = pool.takeEvent(dst);
            backend.recordEvent(done, stream);
            backend.synchronizeEvent(done);
            pool.releaseEvent(done);
        } finally {
            backend.freeHost(staged);
        }
        coherence.write(dst);
        array.setReady(dst, null, null);
    }

    /** The host replica, allocated (zero-filled) on first use, if the host has the memory for it. */
    MemorySegment hostReplica(DeviceArray array) {
        if (managed != null) {
            managed.buffer(array);
            return array.hostReplica();
        }
        MemorySegment h = array.hostReplica();
        if (h == null) {
            HostMemory.checkAvailable(array.byteSize(), array);
            h = backend.allocateHost(array.byteSize());
            array.setHostReplica(h);
        }
        return h;
    }

    /**
     * Work on {@code stream} waits for whatever makes the replica at {@code location} ready. When that is an
     * unfinished kernel's completion event, the kernel is the array's live writer, so the DAG already orders the
     * consumer after it (directly, or through parents that waited for it) and the host or stream waited for it
     * then: only copy events need a wait of their own. Returns whether a wait was enqueued.
     */
    private boolean waitReady(DeviceArray array, int location, StreamHandle stream) {
        Producer p = array.readyProducer(location);
        EventHandle ready = array.readyEvent(location);
        if (p != null && p.stream() != stream && !(p instanceof Computation c && c.event() == ready)) {
            backend.streamWaitEvent(stream, ready);
            return true;
        }
        return false;
    }

    /** The valid location with the highest bandwidth to {@code dst}; ties go to the lowest index. */
    int fastestSource(LocationSet valid, int dst) {
        int best = -1;
        double bestBandwidth = -1;
        for (int loc = valid.first(); loc >= 0; loc = valid.next(loc + 1)) {
            if (loc == dst) {
                continue;
            }
            double b = bandwidth.bandwidth(loc, dst);
            if (b > bestBandwidth) {
                best = loc;
                bestBandwidth = b;
            }
        }
        if (best < 0) {
            throw new IllegalStateException("no valid copy to transfer from (valid locations "
                    + valid + ")");
        }
        return best;
    }
}
