package org.polygpu.sched;

import org.polygpu.array.ArrayAccess;
import org.polygpu.config.RetrieveParentStreamPolicy;
import org.polygpu.dag.DagVertex;
import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.Locations;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * Gives a computation its device and stream (paper Fig. 5): without live parents the device-selection policy
 * picks a device and the stream pool a stream on it; with parents the {@code RetrieveParentStreamPolicy} decides
 * whether a parent's stream is reused. Under the disjoint policies a parent lends its stream to one child only
 * ({@link StreamSlot#isLentBy}); a stream the program created is never taken from a parent. The device-selection
 * policy sees the program's current device ({@code cudaSetDevice}). Not thread-safe.
 */
final class StreamAssignment {
    private final RetrieveParentStreamPolicy parentPolicy;
    private final DeviceSelectionPolicy devicePolicy;
    private final StreamPool pool;
    private final Schedule schedule;
    private final long allDevices;

    StreamAssignment(RetrieveParentStreamPolicy parentPolicy, DeviceSelectionPolicy devicePolicy,
                     Schedule schedule) {
        this.parentPolicy = parentPolicy;
        this.devicePolicy = devicePolicy;
        this.pool = schedule.pool();
        this.schedule = schedule;
        this.allDevices = Locations.allDevices(schedule.deviceCount());
    }

    /** The stream for {@code c}, a computation just appended to the DAG; {@code c} holds it from now on. */
    StreamSlot assign(Computation c) {
        return streamFor(c).handTo(c);
    }

    private StreamSlot streamFor(Computation c) {
        DagVertex<Computation> v = c.vertex();
        if (v.parentCount() == 0) {
            return pool.newStream(select(c, allDevices));
        }
        Computation first = v.parent(0).computation();
        return switch (parentPolicy) {
            case SAME_AS_PARENT -> first.slot().isProgramStream() ? pool.newStream(first.device()) : first.slot();
            case DISJOINT -> {
                Computation p = firstAvailableParent(v, -1);
                yield p != null ? p.slot() : pool.newStream(first.device());
            }
            case MULTIGPU_EARLY_DISJOINT -> {
                Computation p = firstAvailableParent(v, -1);
                yield p != null ? p.slot() : pool.newStream(select(c, allDevices));
            }
            case MULTIGPU_DISJOINT -> {
                long devices = availableParentDevices(v);
                if (devices == 0) {
                    yield pool.newStream(select(c, allDevices));
                }
                yield firstAvailableParent(v, select(c, devices)).slot();
            }
        };
    }

    /** Whether a child of {@code p} may take its stream: {@code p} has one and has not lent it to another child. */
    private static boolean canLendStream(Computation p) {
        StreamSlot s = p.slot();
        return s != null && !s.isLentBy(p);
    }

    /** The first parent whose stream no other child took, on {@code device} unless it is -1. */
    private static Computation firstAvailableParent(DagVertex<Computation> v, int device) {
        for (int i = 0; i < v.parentCount(); i++) {
            Computation p = v.parent(i).computation();
            if (canLendStream(p) && (device < 0 || p.device() == device)) {
                return p;
            }
        }
        return null;
    }

    private static long availableParentDevices(DagVertex<Computation> v) {
        long mask = 0;
        for (int i = 0; i < v.parentCount(); i++) {
            Computation p = v.parent(i).computation();
            if (canLendStream(p)) {
                mask |= Locations.device(p.device());
            }
        }
        return mask;
    }

    /** Asks the device-selection policy, unless only one candidate exists. */
    private int select(Computation c, long candidates) {
        if (Long.bitCount(candidates) == 1) {
            return Long.numberOfTrailingZeros(candidates);
        }
        ArrayAccess[] accesses = c.accessArray();
        long[] bytes = new long[accesses.length];
        long[] valid = new long[accesses.length];
        for (int i = 0; i < accesses.length; i++) {
            bytes[i] = accesses[i].array().byteSize();
            valid[i] = accesses[i].array().coherence().validMask();
        }
        int d = devicePolicy.select(new SelectionRequest(bytes, valid, pool.busyStreamsSnapshot(),
                schedule.currentDevice(), KernelTimes.key(c.work())), candidates);
        if (!Locations.contains(candidates, d)) {
            throw new IllegalStateException("device-selection policy chose device " + d
                    + ", which is not among the candidates " + Long.toBinaryString(candidates));
        }
        return d;
    }
}
