package org.polygpu.lang;

import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.Backends;
import org.polygpu.backend.Clusters;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.LibraryRoutine;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.hostfn.HostFunction;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.BandwidthMatrixLoader;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

/**
 * The language's gate to the runtime: each method makes one call to the {@link ExecutionContext} (or to the backend)
 * through {@link #call}, which turns the runtime's user errors into a {@link PolygpuException} and lets bugs through
 * as internal errors. Guest objects call nothing else.
 *
 * <p>Thread-safety: the execution context serves one thread at a time, so every call holds this object's lock (a
 * polyglot context may be entered by several host threads). Element reads and writes on a host copy the runtime
 * granted for direct access ({@link DeviceArray#directHostRead()}) make no call here at all. Owns the execution context and the backend; closed
 * with the language context. Arrays whose guest object became unreachable without {@code free()} are queued by
 * a {@link Cleaner} and freed, once no unfinished work uses them, by a later call, on the thread that makes it: the
 * cleaner's own thread never touches the execution context.
 */
public final class PolygpuRuntime {
    private static final Cleaner CLEANER = Cleaner.create();

    private final Queue<DeviceArray> unreachable = new ConcurrentLinkedQueue<>();
    /** Unreachable arrays still used by unfinished computations; only touched under this object's lock. */
    private final List<DeviceArray> reclaimLater = new ArrayList<>();
    private final ExecutionContext context;
    private final Backend backend;
    private final ContextOptions options;
    private final String notice;

    private PolygpuRuntime(ExecutionContext context, Backend backend, ContextOptions options, String notice) {
        this.context = context;
        this.backend = backend;
        this.options = options;
        this.notice = notice;
        // Warnings come during calls, on the thread that entered the guest context.
        context.warnTo(line -> new PrintWriter(PolygpuContext.get(null).env().err(), true).println(line));
    }

    /** Opens the backend the options name and an execution context over it. */
    @TruffleBoundary
    static PolygpuRuntime open(ContextOptions options) {
        OpenedBackend opened;
        try {
            opened = Backends.open(options.backend(), options.backendOptions());
        } catch (IllegalArgumentException | IllegalStateException | BackendException e) {
            throw PolygpuException.badOptions(e.getMessage());
        }
        try {
            opened = Clusters.open(options.cluster(), opened);
        } catch (IllegalArgumentException | IllegalStateException | BackendException e) {
            opened.backend().close();
            throw PolygpuException.badOptions(e.getMessage());
        }
        try {
            Optional<String> matrix = options.backendOptions().bandwidthMatrix();
            // Real backends apply BandwidthMatrix themselves; on a virtual clock (the emulator) the links are the
            // emulated topology's, and the option overrides the policies' view only.
            boolean override = matrix.isPresent() && opened.backend().clock() == Backend.Clock.VIRTUAL;
            BandwidthMatrix bandwidth = override ? BandwidthMatrixLoader.resolve(matrix.get()) : opened.bandwidth();
            ExecutionContext context = ExecutionContext.create(opened.backend(), options.runtime(), bandwidth);
            return new PolygpuRuntime(context, opened.backend(), options, opened.notice());
        } catch (IllegalArgumentException | IllegalStateException | BackendException e) {
            opened.backend().close();
            throw PolygpuException.badOptions(e.getMessage());
        } catch (RuntimeException | Error e) {
            opened.backend().close();
            throw e;
        }
    }

    /**
     * Runs one runtime call under this object's lock and turns the runtime's documented user errors (a bad argument
     * or state, an index out of range, a backend or compiler failure) into the guest's exception. Anything else is
     * a bug in polygpu: it propagates with its stack trace and reaches the host as an internal error.
     */
    synchronized <T> T call(Supplier<T> action) {
        try {
            reclaimUnreachable();
            return action.get();
        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException | BackendException e) {
            throw PolygpuException.fromUserError(e);
        }
    }

    /**
     * Frees the arrays the cleaner queued that no unfinished computation uses; the others wait for a later call.
     * Never waits itself: reclaiming must not make the host wait at moments the garbage collector chooses, or the
     * emulator's timeline would change from run to run.
     */
    private void reclaimUnreachable() {
        if (unreachable.isEmpty() && reclaimLater.isEmpty()) {
            return;
        }
        for (DeviceArray a = unreachable.poll(); a != null; a = unreachable.poll()) {
            reclaimLater.add(a);
        }
        reclaimLater.removeIf(context::freeIfIdle);
    }

    /**
     * Frees {@code array} once {@code owner}, the guest object that stands for it, is unreachable. The cleaning
     * action holds the array and the queue, never the owner.
     */
    public void reclaimWhenUnreachable(Object owner, DeviceArray array) {
        Queue<DeviceArray> queue = unreachable;
        CLEANER.register(owner, () -> queue.add(array));
    }

    private void run(Runnable action) {
        call(() -> {
            action.run();
            return null;
        });
    }

    /** What backend was chosen and why, one line. */
    public String notice() {
        return notice;
    }

    public ContextOptions options() {
        return options;
    }

    @TruffleBoundary
    public DeviceArray newArray(ElementType type, long... shape) {
        return call(() -> context.newArray(type, shape));
    }

    @TruffleBoundary
    public Object read(DeviceArray array, long index) {
        return call(() -> context.read(array, index));
    }

    @TruffleBoundary
    public void write(DeviceArray array, long index, Object value) {
        run(() -> context.write(array, index, value));
    }

    /** Reads {@code dst.byteSize()} bytes of {@code array} from {@code byteOffset}. */
    @TruffleBoundary
    public void copyToHost(DeviceArray array, long byteOffset, MemorySegment dst) {
        run(() -> context.copyToHost(array, byteOffset, dst));
    }

    /** Writes all of {@code src} into {@code array} from {@code byteOffset}. */
    @TruffleBoundary
    public void copyFromHost(DeviceArray array, long byteOffset, MemorySegment src) {
        run(() -> context.copyFromHost(array, byteOffset, src));
    }

    /** Copies all of {@code src} into {@code dst} on a device. */
    @TruffleBoundary
    public void copy(DeviceArray src, DeviceArray dst) {
        run(() -> context.copy(src, dst));
    }

    @TruffleBoundary
    public void free(DeviceArray array) {
        run(() -> context.free(array));
    }

    /**
     * Builds a kernel; warns on the context's error stream when its PTX stores through a parameter the signature
     * declares read-only ({@link ReadOnlyStoreWarnings}), unless arrays are managed memory, where such a write lands
     * as it does on GrCUDA.
     */
    @TruffleBoundary
    public Kernel kernel(String name, ModuleImage image, List<Parameter> parameters) {
        Kernel kernel = call(() -> context.kernel(name, image, parameters));
        List<String> warnings = context.backend().managedMemory() ? List.of()
                : ReadOnlyStoreWarnings.of(kernel);
        if (!warnings.isEmpty()) {
            PrintWriter err = new PrintWriter(PolygpuContext.get(null).env().err(), true);
            warnings.forEach(err::println);
        }
        return kernel;
    }

    /** Launches {@code kernel}; returns the scheduled computation (its device and stream are already chosen). */
    @TruffleBoundary
    public Computation launch(Kernel kernel, LaunchConfig config, Object[] arguments) {
        return call(() -> context.launch(kernel, config, arguments));
    }

    /** Calls a host function on the host, scheduled against the arrays it uses ({@code LibraryCalls#callHost}). */
    @TruffleBoundary
    public Object callHost(HostFunction function, Object[] arguments) {
        return call(() -> context.libraries().callHost(function.name(), function.parameters(), arguments,
                function::invoke));
    }

    /** Enqueues a device library routine (BLAS) like a kernel launch. */
    @TruffleBoundary
    public Computation launchLibrary(LibraryRoutine routine, List<Parameter> parameters, Object[] arguments) {
        return call(() -> context.libraries().launch(routine, parameters, arguments));
    }

    /** Writes all of {@code src} into {@code kernel}'s module variable {@code symbol} from byte {@code offset}. */
    @TruffleBoundary
    public void writeSymbol(Kernel kernel, String symbol, long offset, MemorySegment src) {
        run(() -> kernel.writeSymbol(symbol, offset, src));
    }

    @TruffleBoundary
    public void synchronize() {
        run(() -> context.synchronize());
    }

    /** The program's streams and events and its current device. */
    public PolygpuStreams streams() {
        return new PolygpuStreams(this, context);
    }

    /** Devices in use (at most {@code NumberOfGPUs}). */
    public int deviceCount() {
        return context.deviceCount();
    }

    @TruffleBoundary
    public DeviceProperties deviceProperties(int device) {
        return call(() -> backend.deviceProperties(device));
    }

    @TruffleBoundary
    public long freeMemory(int device) {
        return call(() -> backend.freeMemory(device));
    }

    /** The PTX of {@code kernel}'s module, as its backend has it or makes it on request. */
    @TruffleBoundary
    public Optional<String> ptx(Kernel kernel) {
        return call(() -> context.ptx(kernel));
    }

    /**
     * Closes at once for a cancelled program ({@code Context.close(true)}): writes the DAG export, which needs no
     * waiting, drops the launches that have not started, and releases the backend. The trace export, which needs the
     * work finished, is not written.
     */
    @TruffleBoundary
    void cancel() {
        try {
            options.exportDag().ifPresent(prefix -> export(new ArrayList<>(),
                    () -> context.exportDag(Path.of(prefix + ".dot"))));
        } finally {
            context.cancel();
        }
    }

    /**
     * Writes the exports the options ask for, then releases every array, stream and the backend. Each export is
     * written whatever happened before (a fault not raised yet, a program that ended with an error, another export
     * that failed); then the unraised fault, if any, is raised as a guest error, and with it the exports' failures.
     */
    @TruffleBoundary
    void close() {
        List<String> failures = new ArrayList<>();
        try {
            options.exportDag().ifPresent(prefix -> export(failures,
                    () -> context.exportDag(Path.of(prefix + ".dot"))));
            options.exportTrace().ifPresent(file -> export(failures, () -> context.exportTrace(file)));
        } finally {
            try {
                context.close();
            } catch (BackendException e) {
                failures.addFirst(e.getMessage());
            } finally {
                backend.close();
            }
        }
        if (!failures.isEmpty()) {
            throw PolygpuException.badValue(String.join("\n", failures));
        }
    }

    private void export(List<String> failures, Runnable write) {
        try {
            run(write);
        } catch (PolygpuException e) {
            failures.add(e.getMessage());
        }
    }
}
