package org.polygpu.cluster;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.LibraryRoutine;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

/**
 * The backend of a whole MPI job, on rank 0: rank 0's own backend for devices {@code 0..n0-1} (its handles pass
 * through unchanged), then one {@link RemoteRank} per other rank, devices numbered rank-major. The scheduler, the
 * coherence protocol and the policies see one backend; a remote device is a device behind slower links.
 *
 * <p>Semantics across ranks, kept without anything on a device waiting for the host: each remote stream is an
 * ordered queue on its rank ({@link StreamQueue}); a wait for an event of another rank blocks that queue until the
 * other rank reports the event's generation complete; copies between ranks are pulled by the destination's queue
 * when it reaches them ({@link ClusterCopies}). A stream of rank 0 that must wait for another rank's event, or receive
 * another rank's bytes, is held on rank 0's host by {@link HostOrdering} (its later commands follow the hold in order),
 * while the call returns at once, as rank 0's own streams never block on other ranks. Allocation, freeing, queries,
 * synchronisation, module loading and timelines are calls that return the rank's answer (or its failure);
 * everything else is batched ({@link RemoteRank}).
 *
 * <p>Thread-safety: as every backend, used by one scheduler thread; the threads serving workers share only the
 * {@link LockedBackend} and the {@link HostService}.
 */
final class ClusterBackend implements Backend {
    /** Commands per message before a batch is sent without waiting for a reply. */
    static final int BATCH_LIMIT = 64;

    private final Session session;
    private final Backend local;
    private final int localCount;
    private final RemoteRank[] ranks;
    private final int[] rankOfDevice;
    private final HostService host;
    private final ClusterCopies copies;
    private final int[] streamsCreated;
    private final ClusterKernels kernels;
    private final ClusterEvents events;
    private final HostOrdering ordering;

    ClusterBackend(Session session, Backend local, HostService host, List<RemoteRank> remotes, DirectPath direct) {
        this.session = session;
        this.local = local;
        this.localCount = local.deviceCount();
        this.host = host;
        this.ranks = new RemoteRank[session.size()];
        remotes.forEach(r -> ranks[r.rank()] = r);
        int total = localCount + remotes.stream().mapToInt(RemoteRank::deviceCount).sum();
        rankOfDevice = new int[total];
        for (RemoteRank r : remotes) {
            for (int i = 0; i < r.deviceCount(); i++) {
                rankOfDevice[r.first() + i] = r.rank();
            }
        }
        streamsCreated = new int[total];
        ordering = new HostOrdering(local);
        kernels = new ClusterKernels(session, local, ranks, ordering);
        copies = new ClusterCopies(session.transport(), local, host, ranks, this::flushAll, direct, ordering);
        events = new ClusterEvents(session.transport(), local, host, copies, ranks, this::flushAll, kernels,
                ordering);
    }

    private RemoteRank remote(int device) {
        checkDevice(device);
        return ranks[rankOfDevice[device]];
    }

    private boolean isLocal(int device) {
        return device < localCount;
    }

    private void checkDevice(int device) {
        if (device < 0 || device >= rankOfDevice.length) {
            throw new IllegalArgumentException("device " + device + " does not exist; the job has "
                    + rankOfDevice.length + " devices");
        }
    }

    void flushAll() {
        for (RemoteRank r : ranks) {
            if (r != null) {
                r.flush();
            }
        }
    }

    @Override
    public String name() {
        return local.name() + " on " + session.size() + " MPI ranks";
    }

    @Override
    public Clock clock() {
        return local.clock();
    }

    @Override
    public long hostNanos() {
        return local.hostNanos();
    }

    @Override
    public boolean accepts(ModuleImage image) {
        return local.accepts(image);
    }

    @Override
    public boolean checksReadOnlyStores() {
        return local.checksReadOnlyStores();
    }

    @Override
    public int deviceCount() {
        return rankOfDevice.length;
    }

    @Override
    public DeviceProperties deviceProperties(int device) {
        return isLocal(device) ? local.deviceProperties(device)
                : remote(device).properties(device - remote(device).first());
    }

    @Override
    public DeviceBuffer allocate(int device, long bytes) {
        if (isLocal(device)) {
            return local.allocate(device, bytes);
        }
        RemoteRank r = remote(device);
        long key = session.nextKey();
        r.call(Op.ALLOCATE, w -> w.putLong(key).putInt(device - r.first()).putLong(bytes));
        return new Remote.Buffer(device, bytes, r.rank(), key);
    }

    @Override
    public void free(DeviceBuffer buffer) {
        if (buffer instanceof Remote.Buffer b) {
            ranks[b.rank()].call(Op.FREE, w -> w.putLong(b.key()));
        } else {
            if (ordering.holding()) {
                ordering.drain(); // as a GPU's free waits for the device: the held work may still use the buffer
            }
            host.forget(buffer);
            local.free(buffer);
        }
    }

    @Override
    public void prefetch(DeviceBuffer buffer, int device, StreamHandle stream) {
        if (!(buffer instanceof Remote.Buffer) && isLocal(device) && !(stream instanceof Remote.Stream)) {
            ordering.enqueue(stream, () -> local.prefetch(buffer, device, stream));
        }
    }

    @Override
    public long freeMemory(int device) {
        if (isLocal(device)) {
            return local.freeMemory(device);
        }
        RemoteRank r = remote(device);
        return r.call(Op.FREE_MEMORY, w -> w.putInt(device - r.first())).getLong();
    }

    @Override
    public long replicaMemory(int device) {
        return isLocal(device) ? local.replicaMemory(device) : remote(device).replicaMemory(device
                - remote(device).first());
    }

    @Override
    public MemorySegment allocateHost(long bytes) {
        return local.allocateHost(bytes);
    }

    @Override
    public void freeHost(MemorySegment segment) {
        local.freeHost(segment);
    }

    @Override
    public StreamHandle createStream(int device) {
        if (isLocal(device)) {
            return local.createStream(device);
        }
        RemoteRank r = remote(device);
        Remote.Stream s = new Remote.Stream(device, streamsCreated[device]++, r.rank(), session.nextKey());
        r.command(Op.STREAM_CREATE, w -> w.putLong(s.key()).putInt(device - r.first()));
        return s;
    }

    @Override
    public void destroyStream(StreamHandle stream) {
        if (stream instanceof Remote.Stream s) {
            ranks[s.rank()].command(Op.STREAM_DESTROY, w -> w.putLong(s.key()));
            ranks[s.rank()].forgetStream(s.key());
        } else {
            ordering.enqueue(stream, () -> local.destroyStream(stream));
        }
    }

    @Override
    public EventHandle createEvent(int device) {
        if (isLocal(device)) {
            return local.createEvent(device);
        }
        RemoteRank r = remote(device);
        RemoteEvent e = new RemoteEvent(device, r.rank(), session.nextKey());
        r.command(Op.EVENT_CREATE, w -> w.putLong(e.key()).putInt(device - r.first()));
        return e;
    }

    @Override
    public void destroyEvent(EventHandle event) {
        if (event instanceof RemoteEvent e) {
            ranks[e.rank()].command(Op.EVENT_DESTROY, w -> w.putLong(e.key()));
        } else {
            ordering.awaitRecord(event);
            host.forget(event);
            local.destroyEvent(event);
        }
    }

    @Override
    public void recordEvent(EventHandle event, StreamHandle stream) {
        events.record(event, stream);
    }

    @Override
    public void streamWaitEvent(StreamHandle stream, EventHandle event) {
        events.streamWait(stream, event);
    }

    @Override
    public boolean queryEvent(EventHandle event) {
        return events.query(event);
    }

    @Override
    public void synchronizeEvent(EventHandle event) {
        events.synchronize(event);
    }

    @Override
    public void synchronizeAll() {
        ordering.drain();
        local.synchronizeAll();
        flushAll();
        for (RemoteRank r : ranks) {
            if (r != null) {
                RankClock.of(local).holdHostForMessage(r.call(Op.SYNC_ALL, w -> { }).getLong());
                copies.awaitAll(r);
            }
        }
        copies.reclaim(true);
    }

    @Override
    public double elapsedMillis(EventHandle start, EventHandle end) {
        return events.elapsedMillis(start, end);
    }

    @Override
    public void copyHostToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes,
                                 StreamHandle stream, OperationLabel label) {
        copies.hostToDevice(src, dst, dstOffset, bytes, stream, label);
    }

    @Override
    public void copyDeviceToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes,
                                 StreamHandle stream, OperationLabel label) {
        copies.deviceToHost(src, srcOffset, dst, bytes, stream, label);
    }

    @Override
    public void copyDeviceToDevice(DeviceBuffer src, DeviceBuffer dst, long bytes, StreamHandle stream,
                                   OperationLabel label) {
        copies.deviceToDevice(src, dst, bytes, stream, label);
    }

    @Override
    public ModuleHandle loadModule(int device, ModuleImage image) {
        return isLocal(device) ? local.loadModule(device, image) : kernels.loadModule(remote(device), device, image);
    }

    @Override
    public FunctionHandle function(ModuleHandle module, String name) {
        return kernels.function(module, name);
    }

    @Override
    public Optional<String> ptx(ModuleHandle module) {
        return kernels.ptx(module);
    }

    @Override
    public void writeSymbol(ModuleHandle module, String symbol, long offset, MemorySegment src) {
        kernels.writeSymbol(module, symbol, offset, src);
    }

    @Override
    public void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                       OperationLabel label) {
        kernels.launch(function, config, arguments, stream, label, ReadOnlyParameters.NONE);
    }

    @Override
    public void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                       OperationLabel label, ReadOnlyParameters readOnly) {
        kernels.launch(function, config, arguments, stream, label, readOnly);
    }

    @Override
    public void launchLibrary(LibraryRoutine routine, Object[] arguments, StreamHandle stream, OperationLabel label) {
        kernels.launchLibrary(routine, arguments, stream, label);
    }

    @Override
    public Optional<BackendException> takeFault(long computationId) {
        return kernels.takeFault(computationId);
    }

    @Override
    public boolean hasPendingFaults() {
        return kernels.hasPendingFaults();
    }

    @Override
    public void recordTimeline(boolean enabled) {
        local.recordTimeline(enabled);
        for (RemoteRank r : ranks) {
            if (r != null) {
                r.command(Op.TIMELINE_RECORD, w -> w.putBoolean(enabled));
            }
        }
    }

    @Override
    public List<TimedOperation> timeline() {
        List<TimedOperation> all = new ArrayList<>(local.timeline());
        for (RemoteRank r : ranks) {
            if (r != null) {
                WireReader reply = r.call(Op.TIMELINE, w -> { });
                for (int i = reply.getInt(); i > 0; i--) {
                    all.add(Codec.readOperation(reply, r.first()));
                }
            }
        }
        return all;
    }

    @Override
    public void close() {
        try {
            copies.reclaim(true);
            host.releaseStreams();
            for (RemoteRank r : ranks) {
                if (r != null) {
                    r.call(Op.CLOSE, w -> { });
                }
            }
        } finally {
            ordering.close();
            host.close();
            local.close();
        }
    }
}
