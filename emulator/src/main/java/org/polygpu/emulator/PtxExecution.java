package org.polygpu.emulator;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.emulator.ptx.GlobalMemory;
import org.polygpu.emulator.ptx.KernelCounters;
import org.polygpu.emulator.ptx.PtxExecutor;
import org.polygpu.emulator.ptx.PtxLaunch;
import org.polygpu.emulator.ptx.TouchedRanges;
import org.polygpu.emulator.timing.KernelProfile;

/**
 * A PTX kernel launch. It executes on the interpreter when the operation starts in virtual time: its loads see
 * device memory as it is at that instant and its stores land at that instant, and the counters it produces give its
 * duration ({@link DeviceModel#kernelNanos}). A failure (memcheck, trap, instruction budget) is kept and raised when
 * the operation completes, like an asynchronous CUDA error, for {@link KernelFaults} to keep with its computation;
 * the kernel then lasts only its launch latency. What the kernel printed is written to the backend's device output
 * when it completes, before any failure is raised.
 *
 * <p>The buffers passed for parameters declared read-only refuse stores and atomics for this launch (unless the
 * same buffer is also passed for a parameter that may be written), so that a write through an {@code in} or
 * {@code const} pointer is a fault naming the parameter instead of a write the runtime later discards.
 *
 * <p>Managed buffers among the arguments are added to the device's address map for the launch, and the span of each
 * that the kernel touched ({@link TouchedRanges}) faults onto the device when it starts ({@link PageFaults}), its
 * cost added to the launch latency.
 *
 * <p>In sampled execution ({@link PtxKernels#sampledBlocks()}) a grid larger than the sample runs only the sampled
 * blocks, is timed by the counters scaled to the whole grid, and marks every buffer passed to it as not computed
 * (conservatively: the interpreter does not tell which ones the kernel wrote).
 *
 * <p>A PTX kernel executes when it <em>starts</em> in virtual time, because its duration depends on what it
 * executes. Its reads see memory as it is at the start and its writes land at the start, not over its duration nor
 * at its end. Trade-off for race visibility: a consumer on another stream that wrongly does not wait for a PTX
 * producer sees stale data if it starts before the producer starts, but the producer's results if it starts while
 * the producer is still running (a GPU would show partial results); and a PTX kernel reading data that another
 * stream's operation completes during the kernel's run misses it (a GPU might see part of it). Properly
 * synchronised programs behave exactly as on a GPU. The alternative, executing at completion, would need the
 * duration before the counts that determine it.
 */
final class PtxExecution implements KernelExecution {
    private final EmulatedFunction.Ptx function;
    private final LaunchConfig config;
    private final byte[] params;
    private final DeviceMemory memory;
    private final List<EmulatedBuffer> buffers = new ArrayList<>();
    private final Object[] arguments;
    private final ReadOnlyParameters readOnly;
    private final PtxExecutor executor;
    private final DeviceModel model;
    private final long launchLatencyNanos;
    private final long instructionBudget;
    private final long sampledBlocks;
    private final OperationLabel label;
    private final CounterLog log;
    private final PrintStream deviceOutput;
    private final PageFaults pageFaults;
    private String printed = "";
    private KernelProfile profile;
    private BackendException failure;

    PtxExecution(EmulatedFunction.Ptx function, LaunchConfig config, byte[] params, Object[] arguments,
                 DeviceMemory memory, PtxKernels kernels, OperationLabel label, CounterLog log,
                 ReadOnlyParameters readOnly, PageFaults pageFaults) {
        this.function = function;
        this.pageFaults = pageFaults;
        this.arguments = arguments;
        this.readOnly = readOnly;
        this.config = config;
        this.params = params;
        this.memory = memory;
        for (Object a : arguments) {
            if (a instanceof EmulatedBuffer b) {
                buffers.add(b);
            }
        }
        this.executor = kernels.executor();
        this.model = kernels.model();
        this.launchLatencyNanos = kernels.launchLatencyNanos();
        this.instructionBudget = kernels.instructionBudget();
        this.sampledBlocks = kernels.sampledBlocks();
        this.label = label;
        this.log = log;
        this.deviceOutput = kernels.deviceOutput();
    }

    @Override
    public KernelDemand start() {
        Map<String, Long> variables = new HashMap<>();
        function.module().variables().forEach((name, b) -> variables.put(name, b.address()));
        try {
            GlobalMemory view = memory.view(buffers, function.module().image().usesDeviceHeap());
            if (!readOnly.isEmpty()) {
                view = view.withStoresRefused(storeRefusals());
            }
            TouchedRanges touches = managedTouches();
            if (touches != null) {
                view = view.withTouchesRecorded(touches);
            }
            // The kernel's own (mangled) name: the function may have been found by a name expression.
            KernelCounters counters = executor.run(new PtxLaunch(function.module().image(), function.kernel().name(), config, params,
                    view, variables, instructionBudget, model.multiprocessors(), text -> printed = text),
                    sampledBlocks);
            if (config.grid().count() > sampledBlocks) {
                buffers.forEach(b -> b.notComputed(true));
            }
            profile = new KernelProfile(config.grid().count(), (int) config.block().count(),
                    function.kernel().staticSharedBytes() + (long) config.sharedMemoryBytes(), footprint(), counters);
            return new KernelDemand(launchLatencyNanos, model.kernelNanos(profile),
                    model.timing().occupancy(profile).smShare(model.sm()), model.timing().share(profile))
                    .delayedBy(touches == null ? 0 : fault(touches));
        } catch (BackendException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new BackendException("kernel '" + function.name() + "' on device " + function.device()
                    + " failed: " + e, e);
        }
        return KernelDemand.latencyOnly(launchLatencyNanos);
    }

    /** The bytes of the distinct buffers passed to the launch. */
    private long footprint() {
        return buffers.stream().distinct().mapToLong(EmulatedBuffer::bytes).sum();
    }

    /** A record of the spans the launch touches in its managed buffers, or null when it has none. */
    private TouchedRanges managedTouches() {
        Set<Long> managed = new HashSet<>();
        for (EmulatedBuffer b : buffers) {
            if (b.isManaged()) {
                managed.add(b.address());
            }
        }
        return managed.isEmpty() ? null : new TouchedRanges(managed);
    }

    /** Faults the pages the launch touched in its managed buffers onto its device; returns what that cost. */
    private long fault(TouchedRanges touches) {
        long nanos = 0;
        for (EmulatedBuffer b : buffers.stream().filter(EmulatedBuffer::isManaged).distinct().toList()) {
            long[] span = touches.span(b.address()).orElse(null);
            if (span != null) {
                nanos += pageFaults.fault(b, span[0] - b.address(), span[1] - span[0], function.device());
            }
        }
        return nanos;
    }

    /** Why each buffer passed only for read-only parameters refuses stores, by its address. */
    private Map<Long, String> storeRefusals() {
        Map<Long, String> refusals = new HashMap<>();
        for (int i = 0; i < arguments.length; i++) {
            if (arguments[i] instanceof EmulatedBuffer b && readOnly.isReadOnly(i)) {
                refusals.putIfAbsent(b.address(), "it lies in the buffer passed for parameter '" + readOnly.name(i)
                        + "', which the signature declares read-only (in/const): " + ReadOnlyParameters.REMEDY);
            }
        }
        for (int i = 0; i < arguments.length; i++) {
            if (arguments[i] instanceof EmulatedBuffer b && !readOnly.isReadOnly(i)) {
                refusals.remove(b.address());
            }
        }
        return refusals;
    }

    @Override
    public void finish() {
        if (!printed.isEmpty()) {
            deviceOutput.print(printed);
            deviceOutput.flush();
        }
        if (failure != null) {
            throw new BackendException(failure.getMessage() + " (device " + function.device() + ")", failure);
        }
        log.completed(label, profile);
    }
}
