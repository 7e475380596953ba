package org.polygpu.sched;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;

/**
 * Host functions called on arrays: the call joins the DAG as host-side work, the host waits for the computations it
 * depends on, every array it uses gets an up-to-date host replica, the function runs with pointers to those replicas,
 * and then the host's coherence transition of each access is applied (an array it may write is valid on the host
 * only). Later work that uses those arrays depends on the call like on any other computation.
 *
 * <p>Read-only parameters. Under {@code MemoryModel=explicit} a function that writes through a pointer its signature
 * declares read-only ({@code in}, {@code const}) would change the host's copy alone while the devices keep theirs,
 * the write lost or not depending on which copy later work reads. The host copies of arrays passed only for
 * read-only parameters are therefore compared with a snapshot after the call; a change is undone and refused with
 * an error naming the function, the parameter and the first element written, as a kernel's store through such a
 * pointer is refused on the emulator. (Under {@code managed} the write lands, as a kernel's does.) Not thread-safe:
 * used by the execution context's thread.
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
    Object call(String name, List<Parameter> parameters, ArrayAccess[] accesses, Object[] args,
                Function<Object[], Object> body) {
        schedule.barrier().check();
        for (ArrayAccess a : accesses) {
            if (a.access().isReadOnly()) {
                schedule.races().beforeHostCall(a.array(), name);
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
            if (transfers.managed()) {
                return body.apply(onHost);
            }
            try (Arena arena = Arena.ofConfined()) {
                Map<DeviceArray, MemorySegment> before = snapshots(accesses, arena);
                Object result = body.apply(onHost);
                checkUnchanged(name, parameters, args, before);
                return result;
            }
        } finally {
            recording.scheduled(c);
            schedule.retire(c);
        }
    }

    /** A copy of the host replica of each array that only read-only parameters take. */
    private static Map<DeviceArray, MemorySegment> snapshots(ArrayAccess[] accesses, Arena arena) {
        Map<DeviceArray, MemorySegment> before = new IdentityHashMap<>();
        for (ArrayAccess a : accesses) {
            if (a.access().isReadOnly()) {
                before.putIfAbsent(a.array(), null);
            }
        }
        for (ArrayAccess a : accesses) {
            if (!a.access().isReadOnly()) {
                before.remove(a.array());
            }
        }
        before.replaceAll((array, none) -> arena.allocate(array.byteSize()).copyFrom(array.hostReplica()));
        return before;
    }

    /** Undoes and refuses a write through a read-only parameter, naming the function, parameter and element. */
    private static void checkUnchanged(String name, List<Parameter> parameters, Object[] args,
                                       Map<DeviceArray, MemorySegment> before) {
        for (int i = 0; i < args.length && !before.isEmpty(); i++) {
            DeviceArray array = args[i] instanceof DeviceArray a ? a
                    : args[i] instanceof ArrayOffset o ? o.array() : null;
            MemorySegment snapshot = array == null ? null : before.remove(array);
            long at = snapshot == null ? -1 : snapshot.mismatch(array.hostReplica());
            if (at >= 0) {
                array.hostReplica().copyFrom(snapshot);
                int size = array.elementType().bytes();
                throw new IllegalStateException("host function '" + name + "' wrote element " + at / size + " of "
                        + array + " through parameter '" + parameters.get(i).name() + "', which its signature "
                        + "declares read-only (in/const); the write was undone: declare the parameter out or inout");
            }
        }
    }
}
