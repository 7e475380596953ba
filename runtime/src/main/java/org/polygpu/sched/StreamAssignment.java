package org.polygpu.sched;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.config.RetrieveParentStreamPolicy;
import org.polygpu.dag.DagVertex;
import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * Gives a computation its device and stream (paper Fig. 5): without live parents the device-selection policy
 * picks a device and the stream pool a stream on it; with parents the {@code RetrieveParentStreamPolicy} decides
 * whether a parent's stream is reused. Under the disjoint policies a parent lends its stream to one child only
 * ({@link StreamSlot#isLentBy}); a stream the program created is never taken from a parent. The device-selection
 * policy sees the program's current device ({@code cudaSetDevice}). Not thread-safe.
 *
 * <p>The rules follow GrCUDA's scheduler (its multi-GPU mock tests' device sequences are ported in the tests):
 * <ul>
 * <li>Parents are considered oldest first (launch order), not in argument order: "the first parent" is the oldest
 *     live one.</li>
 * <li>{@code disjoint}: the oldest parent whose stream is still available; when none is, a new stream on the device
 *     the device-selection policy picks among all devices (not the first parent's device, which piled every
 *     partition of a fork onto one GPU).</li>
 * <li>{@code multigpu-early-disjoint}: the policy picks the device first, among all devices; the oldest available
 *     parent stream on that device is reused, else a new stream is taken there.</li>
 * <li>{@code multigpu-disjoint}: the policy picks among the devices of the available parents and the oldest
 *     available parent on that device lends its stream; with none available, as for a computation without parents.
 *     </li>
 * </ul>
 * One rule is polygpu's own: under {@code multigpu-disjoint}, when the parent's device the policy picked is crowded
 * ({@link SelectionRequest#crowdedDevices}), the policy is asked again over all devices, and if it answers another
 * device the computation takes a new stream there. GrCUDA only ever moves a child to one of its parents' devices, so
 * a launch whose parents sit on two devices joins one of them and nothing moves work back: with 8 chains that
 * sometimes read each other's arrays, every chain ended on one GPU (99.97% of the benchmarks' {@code LaunchWorkload}
 * launches on one device of 8). Whether to move stays the policy's call (the data-aware policies pass over crowded
 * devices; {@code single-gpu} stays), so a policy that ignores load keeps GrCUDA's placement. The policy study's
 * makespans ({@code scripts/study.sh --quick}) are the same with and without this rule; it only acts on crowding.
 * Another difference is kept on purpose: with a single candidate the policy is not asked (GrCUDA asks it, so a
 * rotating policy advances), since a choice that cannot change would cost a call per launch for nothing.
 */
final class StreamAssignment {
    private final RetrieveParentStreamPolicy parentPolicy;
    private final DeviceSelectionPolicy devicePolicy;
    private final StreamPool pool;
    private final Schedule schedule;
    private final LocationSet allDevices;
    private final DeviceBudgets budgets;

    /** @param budgets the devices' memory for replicas, which tells the policy where a computation fits */
    StreamAssignment(RetrieveParentStreamPolicy parentPolicy, DeviceSelectionPolicy devicePolicy,
                     Schedule schedule, DeviceBudgets budgets) {
        this.parentPolicy = parentPolicy;
        this.devicePolicy = devicePolicy;
        this.pool = schedule.pool();
        this.schedule = schedule;
        this.allDevices = LocationSet.allDevices(schedule.deviceCount());
        this.budgets = budgets;
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
        return switch (parentPolicy) {
            case SAME_AS_PARENT -> {
                Computation oldest = oldestParent(v, -1, false);
                yield oldest.slot().isProgramStream() ? pool.newStream(oldest.device()) : oldest.slot();
            }
            case DISJOINT -> {
                Computation p = oldestParent(v, -1, true);
                yield p != null ? p.slot() : pool.newStream(select(c, allDevices));
            }
            case MULTIGPU_EARLY_DISJOINT -> {
                int device = select(c, allDevices);
                Computation p = oldestParent(v, device, true);
                yield p != null ? p.slot() : pool.newStream(device);
            }
            case MULTIGPU_DISJOINT -> {
                LocationSet devices = availableParentDevices(v);
                if (devices.isEmpty()) {
                    yield pool.newStream(select(c, allDevices));
                }
                int device = select(c, devices);
                if (pool.isCrowded(device) && !devices.equals(allDevices)) {
                    int elsewhere = select(c, allDevices);
                    if (elsewhere != device) {
                        yield pool.newStream(elsewhere);
                    }
                }
                yield oldestParent(v, device, true).slot();
            }
        };
    }

    /** Whether a child of {@code p} may take its stream: {@code p} has one and has not lent it to another child. */
    private static boolean canLendStream(Computation p) {
        StreamSlot s = p.slot();
        return s != null && !s.isLentBy(p);
    }

    /**
     * The oldest parent (first launched), on {@code device} unless it is -1, and whose stream no other child took if
     * {@code available}; null if none.
     */
    private static Computation oldestParent(DagVertex<Computation> v, int device, boolean available) {
        Computation oldest = null;
        for (int i = 0; i < v.parentCount(); i++) {
            Computation p = v.parent(i).computation();
            if ((!available || canLendStream(p)) && (device < 0 || p.device() == device)
                    && (oldest == null || p.id() < oldest.id())) {
                oldest = p;
            }
        }
        return oldest;
    }

    private static LocationSet availableParentDevices(DagVertex<Computation> v) {
        LocationSet.Builder devices = new LocationSet.Builder();
        for (int i = 0; i < v.parentCount(); i++) {
            Computation p = v.parent(i).computation();
            if (canLendStream(p)) {
                devices.add(p.device());
            }
        }
        return devices.build();
    }

    /**
     * The candidates whose free budget holds the replicas {@code accesses} lack there; those with room for all of the
     * arrays are found without looking at the replicas, the common case.
     */
    private LocationSet devicesWithRoom(ArrayAccess[] accesses, LocationSet candidates) {
        long total = 0;
        for (ArrayAccess a : accesses) {
            total += a.array().byteSize();
        }
        LocationSet room = budgets.devicesWithFree(total).intersection(candidates);
        LocationSet lacking = candidates.intersection(allDevices).minus(room);
        for (int d = lacking.first(); d >= 0; d = lacking.next(d + 1)) {
            long missing = 0;
            for (int i = 0; i < accesses.length; i++) {
                DeviceArray a = accesses[i].array();
                if (a.deviceReplica(d) == null && !appearsBefore(accesses, i, a)) {
                    missing += a.byteSize();
                }
            }
            if (!budgets.isLimited(d) || missing <= budgets.free(d)) {
                room = room.with(d);
            }
        }
        return room;
    }

    private static boolean appearsBefore(ArrayAccess[] accesses, int i, DeviceArray a) {
        for (int j = 0; j < i; j++) {
            if (accesses[j].array() == a) {
                return true;
            }
        }
        return false;
    }

    /** Asks the device-selection policy, unless only one candidate exists. */
    private int select(Computation c, LocationSet candidates) {
        if (candidates.size() == 1) {
            return candidates.first();
        }
        ArrayAccess[] accesses = c.accessArray();
        long[] bytes = new long[accesses.length];
        LocationSet[] valid = new LocationSet[accesses.length];
        long pristine = 0;
        for (int i = 0; i < accesses.length; i++) {
            bytes[i] = accesses[i].array().byteSize();
            valid[i] = accesses[i].array().coherence().validLocations();
            pristine |= i < Long.SIZE && accesses[i].array().coherence().isPristine() ? 1L << i : 0;
        }
        int d = devicePolicy.select(new SelectionRequest(bytes, valid, pool.busyStreamsSnapshot(),
                schedule.currentDevice(), schedule.times().workKey(c.work()), pristine,
                devicesWithRoom(accesses, candidates)), candidates);
        if (!candidates.contains(d)) {
            throw new IllegalStateException("device-selection policy chose device " + d
                    + ", which is not among the candidates " + candidates);
        }
        return d;
    }
}
