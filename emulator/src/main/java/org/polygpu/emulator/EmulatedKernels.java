package org.polygpu.emulator;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.LibraryRoutine;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.StreamHandle;

/**
 * The emulated backend's kernels: loading module images on a virtual device, finding their functions, and enqueuing
 * launches as the {@link KernelExecution} the simulation runs.
 *
 * <p>{@link JavaKernelModule}s run their Java bodies with a declared cost; {@link ModuleImage.Ptx} goes to
 * {@link PtxKernels}, which parses and interprets it, and so does {@link ModuleImage.CudaSource} once
 * {@link PtxSourceCompiler} has compiled it. A checked launch waits for room on its stream and is enqueued
 * as a {@link KernelOperation}. Not thread-safe (the backend's single caller); the backend checks that it is open.
 * Lifecycle: {@link #close()} stops the interpreter's pool.
 */
final class EmulatedKernels {
    private final Object owner;
    private final Handles handles;
    private final DeviceModel model;
    private final long launchLatencyNanos;
    private final DeviceMemory[] memories;
    private final PtxKernels ptx;
    private final PtxSourceCompiler compiler;
    private final CounterLog counterLog;
    private final HostClock host;
    private final Consumer<EmulatedStream> awaitRoom;
    private final KernelFaults faults;
    private final PageFaults pageFaults;

    /**
     * @param awaitRoom blocks the host while a stream's queue is full (the backend's back-pressure)
     * @param faults    where completed kernels' faults are kept for the runtime
     */
    EmulatedKernels(Object owner, Handles handles, DeviceMemory[] memories, PtxKernels ptx,
                    PtxSourceCompiler compiler, CounterLog counterLog, HostClock host,
                    Consumer<EmulatedStream> awaitRoom, PageFaults pageFaults, KernelFaults faults) {
        this.owner = owner;
        this.faults = faults;
        this.pageFaults = pageFaults;
        this.host = host;
        this.awaitRoom = awaitRoom;
        this.handles = handles;
        this.model = ptx.model();
        this.launchLatencyNanos = ptx.launchLatencyNanos();
        this.memories = memories;
        this.ptx = ptx;
        this.compiler = compiler;
        this.counterLog = counterLog;
    }

    /**
     * Whether {@link #load} takes this kind of image: PTX, CUDA source (compiled to PTX) and Java kernels; a CUBIN
     * cannot be interpreted.
     */
    static boolean accepts(ModuleImage image) {
        return image instanceof ModuleImage.Ptx || image instanceof ModuleImage.CudaSource
                || image instanceof JavaKernelModule;
    }

    /**
     * Loads a {@link JavaKernelModule}, PTX text, or CUDA source compiled to PTX by {@link PtxSourceCompiler}; PTX is
     * parsed once per distinct text whatever the number of devices, and its module variables are allocated on
     * {@code device}.
     *
     * @throws BackendException for a CUBIN or another image it cannot load, saying what it loads; an
     *     {@link org.polygpu.nvrtc.NvrtcException} when CUDA source does not compile or NVRTC is missing
     */
    ModuleHandle load(int device, ModuleImage image) {
        return switch (Objects.requireNonNull(image, "image")) {
            case JavaKernelModule m -> new EmulatedModule.Java(owner, device, m);
            case ModuleImage.Ptx p -> ptx.load(owner, device, p.text(), Map.of(), memories[device]);
            case ModuleImage.CudaSource source -> {
                PtxSourceCompiler.Compiled compiled = compiler.compile(source);
                yield ptx.load(owner, device, compiled.ptx(), compiled.loweredNames(), memories[device]);
            }
            case ModuleImage.Cubin c -> throw new BackendException("cannot load " + c.description() + " on the "
                    + "emulated backend: it interprets PTX; compile to PTX instead");
            default -> throw new BackendException("cannot load " + image.description()
                    + " on the emulated backend: it loads PTX, CUDA source and JavaKernelModule images");
        };
    }

    /** The PTX a module was loaded from or compiled to; empty for Java kernels. */
    Optional<String> ptx(ModuleHandle module) {
        return switch (handles.module(module)) {
            case EmulatedModule.Java m -> Optional.empty();
            case EmulatedModule.Ptx m -> Optional.of(m.text());
        };
    }

    /**
     * Writes a PTX module's variable in place: the scheduler has waited for the launches that use the module, and
     * launches enqueued later read device memory only when they run.
     */
    void writeSymbol(ModuleHandle module, String symbol, long offset, MemorySegment src) {
        Map<String, EmulatedBuffer> variables = switch (handles.module(module)) {
            case EmulatedModule.Java m -> Map.of();
            case EmulatedModule.Ptx m -> m.variables();
        };
        EmulatedBuffer b = variables.get(symbol);
        if (b == null) {
            throw new BackendException("no variable '" + symbol + "' in the module; its variables are "
                    + variables.keySet());
        }
        if (offset < 0 || offset + src.byteSize() > b.bytes()) {
            throw new BackendException(src.byteSize() + " bytes at offset " + offset + " do not fit in variable '"
                    + symbol + "' of " + b.bytes() + " bytes");
        }
        MemorySegment.copy(src, 0, b.segment(), offset, src.byteSize());
    }

    /** @throws BackendException naming the kernels that exist when {@code name} is not one of them */
    FunctionHandle function(ModuleHandle module, String name) {
        return switch (handles.module(module)) {
            case EmulatedModule.Java m -> m.image().kernel(name)
                    .map(k -> new EmulatedFunction.Java(owner, m.device(), k.name(), k.body(), k.cost()))
                    .orElseThrow(() -> new BackendException("no kernel '" + name + "' in the module; its kernels are "
                            + m.image().kernelNames()));
            case EmulatedModule.Ptx m -> ptx.function(m, name);
        };
    }

    /**
     * Enqueues a kernel after checking the grid and block against the device's limits and the arguments against the
     * kernel (for PTX: count and type of every parameter, and shared memory). A PTX kernel's stores through the
     * pointers {@code readOnly} names fault, and so do a Java kernel's writes through them ({@link JavaExecution}).
     */
    void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                OperationLabel label, ReadOnlyParameters readOnly) {
        EmulatedFunction f = handles.function(function);
        EmulatedStream s = handles.stream(stream);
        if (f.device() != s.device()) {
            throw new BackendException("kernel '" + f.name() + "' was loaded on device " + f.device()
                    + " but launched on " + s);
        }
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(arguments, "arguments");
        LaunchChecks.checkConfig(f.name(), config, model);
        Object[] args = LaunchChecks.checkArguments(f.name(), arguments, s.device(), owner);
        Object[] buffers = LaunchChecks.withoutOffsets(args);
        KernelExecution execution = execution(f, config, args, buffers, s.device(), label,
                Objects.requireNonNull(readOnly));
        awaitRoom.accept(s);
        host.enqueue(new KernelOperation(s, label, execution, buffers, faults, pageFaults));
    }

    /**
     * Enqueues a library routine on {@code stream}: its Java implementation runs over the device's memory when it
     * completes, after {@code launchLatency} plus the roofline time of the work the routine declares.
     */
    void launchLibrary(LibraryRoutine routine, Object[] arguments, StreamHandle stream, OperationLabel label) {
        EmulatedStream s = handles.stream(stream);
        Objects.requireNonNull(label, "label");
        Object[] args = LaunchChecks.checkArguments(routine.name(), arguments, s.device(), owner);
        KernelWork work;
        try {
            work = new KernelWork(routine.flops(args), routine.bytes(args));
        } catch (RuntimeException e) {
            throw new BackendException("the cost of " + routine.name() + " failed: " + e.getMessage(), e);
        }
        KernelExecution execution = new LibraryExecution(routine, s.device(), args,
                KernelDemand.wholeDevice(launchLatencyNanos, model.rooflineNanos(work), model));
        awaitRoom.accept(s);
        host.enqueue(new KernelOperation(s, label, execution, LaunchChecks.withoutOffsets(args), faults, pageFaults));
    }

    /** @param buffers {@code args} with each offset replaced by its buffer, for what works on whole buffers */
    private KernelExecution execution(EmulatedFunction f, LaunchConfig config, Object[] args, Object[] buffers,
                                      int device, OperationLabel label, ReadOnlyParameters readOnly) {
        return switch (f) {
            case EmulatedFunction.Java j -> new JavaExecution(j, config, device, args,
                    KernelDemand.wholeDevice(launchLatencyNanos, model.rooflineNanos(work(j, config, args)), model),
                    readOnly);
            case EmulatedFunction.Ptx p -> new PtxExecution(p, config, ptx.parameters(p, config, args),
                    buffers, memories[device], ptx, label, counterLog, readOnly, pageFaults);
        };
    }

    private static KernelWork work(EmulatedFunction.Java f, LaunchConfig config, Object[] args) {
        try {
            return Objects.requireNonNull(f.cost().work(config, args), "the cost returned null");
        } catch (RuntimeException e) {
            throw new BackendException("the cost of kernel '" + f.name() + "' failed: " + e.getMessage(), e);
        }
    }
}
