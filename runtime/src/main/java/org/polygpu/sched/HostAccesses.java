package org.polygpu.sched;

import java.lang.foreign.MemorySegment;

import org.polygpu.array.Access;
import org.polygpu.array.Coherence;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.Elements;

/**
 * Host-side accesses to arrays (element reads and writes, bulk copies): the host waits only for the computations
 * the array depends on, the host replica is brought up to date, and the host's coherence transition is applied.
 * Not thread-safe: used by the execution context's thread.
 */
final class HostAccesses {
    /** The largest array an element read brings to the host whole. */
    static final long WHOLE_ARRAY_BYTES = 16L << 20;

    private final Schedule schedule;
    private final ReplicaTransfers transfers;
    private final ScheduleRecording recording;
    private final int host;

    HostAccesses(Schedule schedule, ReplicaTransfers transfers, ScheduleRecording recording) {
        this.schedule = schedule;
        this.transfers = transfers;
        this.recording = recording;
        this.host = schedule.deviceCount();
    }

    /**
     * A host-side access: waits for the computations it depends on, brings the host replica up to date unless the
     * access overwrites it all, and applies the host's coherence transition. It joins the DAG only when it has
     * live parents or the DAG is recorded: otherwise it finishes at once and no later work could depend on it.
     */
    void access(HostAccess work) {
        long id = schedule.nextId();
        DeviceArray array = work.array();
        Access access = work.access();
        Computation c = begin(work, id);
        if (access == Access.WRITE) {
            schedule.faults().defined(array);
            transfers.hostReplica(array);
        } else {
            checkDefined(array, c);
            transfers.fetchToHost(array, id);
        }
        if (access.isReadOnly()) {
            array.coherence().read(host);
        } else {
            array.coherence().write(host);
            array.setReady(host, null, null);
        }
        end(c);
        grantDirectAccess(array);
    }

    /**
     * An element read, ordered like {@link #access}. An array of up to {@link #WHOLE_ARRAY_BYTES} is brought to the
     * host whole, so that reading it element by element costs one copy; of a larger one, when the host replica is
     * not valid, the element alone is copied from a valid device, so one read never materialises it on the host.
     */
    Object readElement(DeviceArray array, long index) {
        if (array.byteSize() <= WHOLE_ARRAY_BYTES) {
            access(HostAccess.readElement(array, index));
            return Elements.get(array.hostReplica(), array.elementType(), index);
        }
        long id = schedule.nextId();
        Computation c = begin(HostAccess.readElement(array, index), id);
        checkDefined(array, c);
        Object value = transfers.readElement(array, index, id);
        end(c);
        grantDirectAccess(array);
        return value;
    }

    /**
     * After an access, lets later element accesses skip the scheduler while nothing can change their outcome: reads
     * while the host copy is valid and no unfinished work writes the array, writes too while the host holds the only
     * copy, written (a pristine array's zeros are valid everywhere) and no unfinished work uses the array. Never when
     * the DAG is recorded, where every access must appear. Device work revokes the grant when it is scheduled.
     */
    private void grantDirectAccess(DeviceArray array) {
        Coherence coherence = array.coherence();
        if (recording.recordsDag() || array.hostReplica() == null || !coherence.isValid(host)
                || schedule.dag().hasLiveDependencies(array, Access.READ)) {
            return;
        }
        boolean write = coherence.validMask() == 1L << host && !coherence.isPristine()
                && array.readyProducer(host) == null && !schedule.dag().hasLiveDependencies(array, Access.WRITE);
        array.grantDirectHostAccess(write);
    }

    /**
     * Joins the DAG and waits for the parents, when the access has live parents or the DAG is recorded. It is logged
     * before the wait, which retires the parents and with them the edges it honoured.
     */
    private Computation begin(HostAccess work, long id) {
        if (!recording.recordsDag() && !schedule.dag().hasLiveDependencies(work.array(), work.access())) {
            return null;
        }
        Computation c = new Computation(id, work);
        schedule.append(c);
        recording.scheduled(c);
        schedule.awaitParents(c);
        return c;
    }

    /** Refuses an access to an array a faulted kernel left undefined, retiring the access first. */
    private void checkDefined(DeviceArray array, Computation c) {
        try {
            schedule.faults().checkDefined(array);
        } catch (RuntimeException e) {
            end(c);
            throw e;
        }
    }

    private void end(Computation c) {
        if (c != null) {
            schedule.retire(c);
        }
    }

    /** @throws IndexOutOfBoundsException unless {@code bytes} from {@code byteOffset} on lie within the array */
    static void checkRange(DeviceArray array, long byteOffset, long bytes) {
        if (byteOffset < 0 || bytes < 0 || byteOffset > array.byteSize() - bytes) {
            throw new IndexOutOfBoundsException("bytes " + byteOffset + ".." + (byteOffset + bytes) + " are out of "
                    + "range for " + array + " (" + array.byteSize() + " bytes)");
        }
    }

    /** @throws IllegalArgumentException when {@code host} is smaller than the array */
    static void checkSize(DeviceArray array, MemorySegment host) {
        if (host.byteSize() < array.byteSize()) {
            throw new IllegalArgumentException("host memory of " + host.byteSize() + " bytes is smaller than "
                    + array + " (" + array.byteSize() + " bytes)");
        }
    }
}
