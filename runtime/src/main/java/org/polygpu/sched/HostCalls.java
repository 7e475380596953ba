package org.polygpu.sched;

import java.lang.foreign.MemorySegment;
import java.util.function.Function;

import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;

/**
 * Host functions called on arrays: the call joins the DAG as host-side work, the host waits for the computations it
 * depends on, every array it uses gets an up-to-date host replica, the function runs with pointers to those replicas,
 * and then the host's coherence transition of each access is applied (an array it may write is valid on the host
 * only). Later work that uses those arrays depends on the call like on any other computation. Not thread-safe: used by
 * the execution context's thread.
 */
final class HostCalls {
    private final Schedule schedule;
    private final ReplicaTransfers transfers;
    private final ScheduleRecording recording;
    private final int host;

    HostCalls(Schedule schedule, ReplicaTransfers transfers, ScheduleRecording recording) {
        this.schedule = schedule;
        this.transfers = transfers;
        this.recording = recording;
        this.host = schedule.deviceCount();
    }

    /**
     * Runs {@code body} on the host with {@code args}, each array (or offset into one) replaced by its host replica's
     * memory (from the offset on); returns what the body returned.
     */
    Object call(String name, ArrayAccess[] accesses, Object[] args, Function<Object[], Object> body) {
        for (ArrayAccess a : accesses) {
            if (a.access().isReadOnly()) {
                schedule.races().beforeRead(a.array(), a.array() + " (passed to host function '" + name + "')");
            }
        }
        Computation c = new Computation(schedule.nextId(), new HostCall(name, accesses));
        schedule.append(c);
        try {
            schedule.awaitParents(c);
            for (ArrayAccess a : accesses) {
                if (a.access() != Access.WRITE) {
                    schedule.faults().checkDefined(a.array());
                }
                transfers.fetchToHost(a.array(), c.id());
            }
            Object[] onHost = args.clone();
            for (int i = 0; i < onHost.length; i++) {
                if (onHost[i] instanceof DeviceArray a) {
                    onHost[i] = a.hostReplica();
                } else if (onHost[i] instanceof ArrayOffset o) {
                    MemorySegment h = o.array().hostReplica();
                    onHost[i] = h.asSlice(o.bytes());
                }
            }
            for (ArrayAccess a : accesses) {
                if (a.access().isReadOnly()) {
                    a.array().coherence().read(host);
                } else {
                    // Even a failed call may have written through its pointers: the host copy is the one to keep.
                    schedule.faults().defined(a.array());
                    a.array().coherence().write(host);
                    a.array().setReady(host, null, null);
                }
            }
            return body.apply(onHost);
        } finally {
            recording.scheduled(c);
            schedule.retire(c);
        }
    }
}
