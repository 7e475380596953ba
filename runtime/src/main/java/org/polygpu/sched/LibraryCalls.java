package org.polygpu.sched;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import org.polygpu.backend.LibraryRoutine;

/**
 * Calls of library code on arrays, scheduled like kernels: functions of shared libraries run by the host on host
 * replicas ({@link #callHost}), and device library routines such as BLAS run on a device's stream
 * ({@link #launch}). Both take their dependencies from the access modes of their pointer parameters. Obtained from
 * {@link ExecutionContext#libraries()}; used by the context's thread only.
 */
public final class LibraryCalls {
    private final Schedule schedule;
    private final HostCalls hostCalls;
    private final Consumer<Computation> scheduler;
    private final Runnable checkOpen;

    LibraryCalls(Schedule schedule, ReplicaTransfers transfers, ScheduleRecording recording,
                 Consumer<Computation> scheduler, Runnable checkOpen) {
        this.schedule = schedule;
        this.hostCalls = new HostCalls(schedule, transfers, recording);
        this.scheduler = scheduler;
        this.checkOpen = checkOpen;
    }

    /**
     * Calls a host function: waits for what its arrays depend on, brings their host replicas up to date and runs
     * {@code body} with each array argument replaced by its host replica's {@code MemorySegment}; a
     * {@code MemorySegment} argument (host memory) passes through untracked, scalars unchanged. Returns what
     * {@code body} returns.
     *
     * @param parameters the function's parameters: pointers with their access modes, scalars with their types
     * @throws IllegalArgumentException naming the parameter whose argument does not fit
     */
    public Object callHost(String name, List<Parameter> parameters, Object[] args, Function<Object[], Object> body) {
        checkOpen.run();
        Object[] bound = LibraryArguments.bind(name, parameters, args, true, false);
        return hostCalls.call(name, parameters, LibraryArguments.accesses(parameters, bound), bound, body);
    }

    /**
     * Enqueues a device library routine with one argument per parameter, a {@code DeviceArray} for each pointer;
     * returns at once under the async policy, like a kernel launch.
     *
     * @throws IllegalArgumentException naming the parameter whose argument does not fit
     */
    public Computation launch(LibraryRoutine routine, List<Parameter> parameters, Object... args) {
        checkOpen.run();
        Object[] bound = LibraryArguments.bind(routine.name(), parameters, args, false, true);
        Computation c = new Computation(schedule.nextId(), new LibraryLaunch(routine, parameters, bound));
        scheduler.accept(c);
        return c;
    }
}
