package org.polygpu.sched;

import java.lang.foreign.MemorySegment;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.Coherence;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/**
 * Arrays under {@code MemoryModel=managed}, as GrCUDA keeps them: each array is one managed allocation that every
 * device and the host address, so there are no replicas to copy and kernels on different devices that write
 * disjoint parts of one array all land, whatever the signature declares.
 *
 * <p>The DAG still orders computations by their declared accesses, exactly as under {@code explicit}. The coherence
 * state is still kept, as GrCUDA keeps its locations: the device-selection policies read it to estimate what a device
 * would have to receive, and it says which arrays to prefetch. Before each computation, every array it uses that is
 * not valid on its device by that state is prefetched there on its stream (the paper's §III-B: prefetches join the
 * DAG); the backend moves only the pages that are elsewhere. An array the state wrongly thinks valid there (a kernel
 * elsewhere wrote it through a {@code const} pointer) is not prefetched, and the kernel faults in the pages it
 * touches. (GrCUDA's own prefetcher prefetches only arrays the host accessed last, leaving every transfer between
 * devices to faults.) Before each host access the bytes it touches are migrated to the host and waited for.
 *
 * <p>Not thread-safe: owned by the scheduler's thread.
 */
final class ManagedArrays {
    private final Backend backend;
    private final StreamPool pool;
    private final boolean labelled;

    /** @param labelled whether migrations get descriptive labels (only worth building when a timeline is recorded) */
    ManagedArrays(Backend backend, StreamPool pool, boolean labelled) {
        this.backend = backend;
        this.pool = pool;
        this.labelled = labelled;
    }

    /** The array's one allocation, made (zero-filled) on first use. */
    DeviceBuffer buffer(DeviceArray array) {
        DeviceBuffer b = array.managedBuffer();
        if (b == null) {
            b = backend.allocateManaged(array.byteSize());
            array.setManaged(b, backend.hostView(b));
        }
        return b;
    }

    /**
     * Prefetches the arrays of {@code c} not valid on its device there, on its stream, and applies the coherence
     * transitions.
     */
    void prepare(Computation c) {
        int d = c.device();
        StreamHandle stream = c.slot().handle;
        for (ArrayAccess a : c.accessArray()) {
            DeviceArray array = a.array();
            array.revokeDirectHostAccess();
            Coherence coherence = array.coherence();
            DeviceBuffer b = buffer(array);
            if (!coherence.isValid(d)) {
                backend.prefetch(b, 0, array.byteSize(), d, stream,
                        new OperationLabel(c.id(), labelled ? "prefetch " + array + " to device " + d : "prefetch"));
            }
            if (a.access().isReadOnly()) {
                coherence.read(d);
            } else {
                coherence.write(d);
            }
        }
    }

    /**
     * Migrates bytes {@code offset..offset+bytes} of {@code array} to the host and waits for the migration; returns
     * the host view. The host has already waited for the computations the access depends on.
     */
    MemorySegment toHost(DeviceArray array, long offset, long bytes, long computationId) {
        DeviceBuffer b = buffer(array);
        StreamHandle stream = pool.hostStream(0);
        backend.prefetch(b, offset, bytes, -1, stream, new OperationLabel(computationId, labelled
                ? "migrate " + array + " bytes " + offset + ".." + (offset + bytes) + " to host" : "migrate to host"));
        EventHandle done = pool.takeEvent(0);
        backend.recordEvent(done, stream);
        backend.synchronizeEvent(done);
        pool.releaseEvent(done);
        return array.hostReplica();
    }
}
