package org.polygpu.sched;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.ptx.ParameterStores;

/**
 * Host reads that race with a writer the DAG does not know: a kernel still running that the DAG does not order
 * before the read, because its signature declares the pointer it was given for the array read-only ({@code in},
 * {@code const}), while its PTX stores through that pointer ({@link Kernel#readOnlyStores()}). Such a store lands
 * where the backend does not refuse it: under {@code MemoryModel=managed} (one allocation every device and the host
 * address, as GrCUDA's programs that write through {@code const} pointers expect) and, under {@code explicit}, on a
 * backend that does not check stores against the signature (CUDA: the store lands in the kernel's replica, which a
 * host read may copy back or not). On the emulator under {@code explicit} the store is refused as a fault instead,
 * so nothing races.
 *
 * <p>What a racing read does. It is reported and then <em>ordered</em>: the host waits for the kernel before it reads,
 * so the value is the one the program would read had the signature declared the parameter {@code out} or
 * {@code inout}, the same on every run and on both backends. The report is a warning on the context's error stream,
 * as compute-sanitizer's racecheck reports a hazard and lets the program go on: GrCUDA programs that write through
 * {@code const} pointers under managed memory work on GrCUDA when the timing happens to favour them, and an error would
 * stop them where waiting gives them the answer they expect. It names the array and the access, the kernel (with its
 * computation id and device), the parameter and the store, once per kernel and parameter, so a loop does not repeat
 * it. Whether the kernel still overlaps the read is asked of the backend (its completion event): in virtual time on
 * the emulator, so the report too is the same on every run; a kernel that already completed does not race.
 *
 * <p>Writers this cannot see are those outside any signature (a native address a kernel gets as an integer, work on
 * memory the scheduler does not track); the emulator's reads of them follow its virtual-time rule
 * ({@code EmulatedBackend}, "Host observations"). Not thread-safe: used by the execution context's thread.
 */
final class HostReadRaces {
    private final Backend backend;
    private final Schedule schedule;
    /** Whether read-only stores are refused by the backend, so that they never land. */
    private final boolean refused;
    private final Set<String> warned = new HashSet<>();
    private Consumer<String> warnings = System.err::println;
    /** Whether some kernel of the context stores through a read-only pointer; until then no read races. */
    private boolean possible;

    HostReadRaces(Backend backend, Schedule schedule) {
        this.backend = backend;
        this.schedule = schedule;
        this.refused = backend.checksReadOnlyStores() && !backend.managedMemory();
    }

    /** Where race reports go (the context's error stream; standard error until set). */
    void warnTo(Consumer<String> sink) {
        this.warnings = sink;
    }

    /** A kernel was created: reads may race from now on when it stores through a read-only pointer. */
    void kernelCreated(Kernel kernel) {
        possible |= !refused && !kernel.readOnlyStores().isEmpty();
    }

    /**
     * Whether an unfinished kernel the DAG does not order before a read of {@code array} may write it (without asking
     * the backend whether it completed): the host must not read it directly.
     */
    boolean mayRace(DeviceArray array) {
        if (!possible) {
            return false;
        }
        for (Computation c : schedule.dag().liveReaders(array)) {
            if (store(c, array) != null) {
                return true;
            }
        }
        return false;
    }

    /** Before the host reads all of {@code array}: {@link #check}. */
    void beforeRead(DeviceArray array) {
        if (possible) {
            check(array, array::toString);
        }
    }

    /** Before the host reads element {@code index} of {@code array}: {@link #check}. */
    void beforeReadElement(DeviceArray array, long index) {
        if (possible) {
            check(array, () -> "element " + index + " of " + array);
        }
    }

    /** Before the host reads bytes {@code byteOffset..byteOffset+bytes} of {@code array}: {@link #check}. */
    void beforeReadRange(DeviceArray array, long byteOffset, long bytes) {
        if (possible) {
            check(array, () -> "bytes " + byteOffset + ".." + (byteOffset + bytes) + " of " + array);
        }
    }

    /** Before host function {@code function} reads {@code array}: {@link #check}. */
    void beforeHostCall(DeviceArray array, String function) {
        if (possible) {
            check(array, () -> array + " (passed to host function '" + function + "')");
        }
    }

    /**
     * Reports each unfinished kernel that may write {@code array} through a read-only pointer ({@code access}
     * describes the read, e.g. {@code element 3 of x}, and is built only for a report), and waits for it. Called only
     * once some kernel stores through a read-only pointer, so reads of other programs build no description.
     */
    private void check(DeviceArray array, Supplier<String> access) {
        for (Computation c : schedule.dag().liveReaders(array)) {
            ParameterStores.Store store = store(c, array);
            if (store == null || c.isFinished() || schedule.pool().query(c)) {
                continue;
            }
            Kernel k = ((KernelLaunch) c.work()).kernel();
            String parameter = k.parameters().get(store.parameter()).name();
            if (warned.add(k.name() + "\u0000" + parameter)) {
                warnings.accept("polygpu: warning: race: the host reads " + access.get() + " while kernel '" + k.name()
                        + "' (computation " + c.id() + " on device " + c.device() + "), which the DAG does not order "
                        + "before the read, may still write " + array + " through parameter '" + parameter
                        + "', declared read-only (in/const) (" + store.instruction().replaceAll("\\s+", " ")
                        + " at PTX line " + store.line() + "); the read waits for the kernel: declare the parameter "
                        + "out or inout");
            }
            schedule.pool().await(c);
        }
    }

    /** The store through which kernel computation {@code c} may write {@code array} undeclared, or null. */
    private static ParameterStores.Store store(Computation c, DeviceArray array) {
        if (!(c.work() instanceof KernelLaunch launch) || launch.kernel().readOnlyStores().isEmpty()) {
            return null;
        }
        Object[] args = launch.args();
        for (ParameterStores.Store s : launch.kernel().readOnlyStores()) {
            int i = s.parameter();
            if (i < args.length && (args[i] == array || args[i] instanceof ArrayOffset o && o.array() == array)) {
                return s;
            }
        }
        return null;
    }
}
