package org.polygpu.emulator;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.emulator.ptx.ModuleVariable;
import org.polygpu.emulator.ptx.PtxExecutor;
import org.polygpu.emulator.ptx.PtxKernel;
import org.polygpu.emulator.ptx.PtxModule;
import org.polygpu.emulator.ptx.PtxParameterBlock;

/**
 * The PTX side of the emulated backend: parses each distinct PTX text once (a module loaded on eight devices is
 * parsed once), allocates a loaded module's {@code .global} and {@code .const} variables on its device, finds
 * kernels, checks launches against the kernel's parameters and shared memory, and owns the interpreter's thread
 * pool.
 *
 * <p>Not thread-safe, like the backend. Lifecycle: {@link #close()} stops the pool.
 */
final class PtxKernels implements AutoCloseable {
    private final Map<String, PtxModule> parsed = new HashMap<>();
    private final PtxExecutor executor;
    private final DeviceModel model;
    private final long launchLatencyNanos;
    private final long instructionBudget;
    private final PrintStream deviceOutput;
    private final long sampledBlocks;

    /** @param sampledBlocks thread blocks each launch interprets at most; {@code Long.MAX_VALUE} for all */
    PtxKernels(int parallelism, DeviceModel model, long launchLatencyNanos, long instructionBudget,
               PrintStream deviceOutput, long sampledBlocks) {
        this.executor = new PtxExecutor(parallelism);
        this.model = model;
        this.launchLatencyNanos = launchLatencyNanos;
        this.instructionBudget = instructionBudget;
        this.deviceOutput = deviceOutput;
        this.sampledBlocks = sampledBlocks;
    }

    /** Thread blocks each launch interprets at most ({@code Long.MAX_VALUE}: all, the full execution). */
    long sampledBlocks() {
        return sampledBlocks;
    }

    /** Where kernels' {@code printf} output goes. */
    PrintStream deviceOutput() {
        return deviceOutput;
    }

    PtxExecutor executor() {
        return executor;
    }

    DeviceModel model() {
        return model;
    }

    long launchLatencyNanos() {
        return launchLatencyNanos;
    }

    long instructionBudget() {
        return instructionBudget;
    }

    /**
     * Loads PTX text on {@code device}, allocating its module variables there.
     *
     * @param loweredNames the mangled name of each name expression the text was compiled with, which
     *                     {@link #function} then accepts as kernel names
     * @throws BackendException naming the PTX line of what cannot be parsed or is not supported
     */
    EmulatedModule.Ptx load(Object owner, int device, String text, Map<String, String> loweredNames,
                            DeviceMemory memory) {
        PtxModule module = parsed.get(text);
        if (module == null) {
            module = PtxModule.parse(text);
            parsed.put(text, module);
        }
        Map<String, EmulatedBuffer> variables = new LinkedHashMap<>();
        for (ModuleVariable v : module.variables()) {
            EmulatedBuffer b = memory.allocate(owner, v.size(), (v.constant() ? ".const" : ".global")
                    + " variable '" + v.name() + "' of " + v.size() + " bytes", v.constant());
            byte[] init = v.init();
            MemorySegment.copy(MemorySegment.ofArray(init), 0, b.segment(), 0, Math.min(init.length, v.size()));
            variables.put(v.name(), b);
        }
        for (ModuleVariable v : module.variables()) {
            for (ModuleVariable.Relocation r : v.relocations()) {
                variables.get(v.name()).segment().set(ValueLayout.JAVA_LONG_UNALIGNED, r.offset(),
                        variables.get(r.symbol()).address() + r.addend());
            }
        }
        return new EmulatedModule.Ptx(owner, device, module, text, Map.copyOf(loweredNames),
                Map.copyOf(variables));
    }

    /**
     * Finds {@code name}: a kernel's name in the PTX (mangled for C++ kernels), or a name expression the module was
     * compiled with.
     *
     * @throws BackendException listing the kernels that exist when {@code name} is not one of them
     */
    EmulatedFunction.Ptx function(EmulatedModule.Ptx module, String name) {
        String symbol = module.loweredNames().getOrDefault(name, name);
        PtxKernel kernel = module.image().kernel(symbol).orElseThrow(() -> new BackendException("no kernel '" + name
                + "' in the PTX module; its kernels are " + module.image().kernelNames()
                + (module.loweredNames().isEmpty() ? "" : " and its name expressions "
                        + module.loweredNames().keySet())));
        return new EmulatedFunction.Ptx(module.owner(), module.device(), name, module, kernel);
    }

    /**
     * Checks a launch's shared memory and arguments against the kernel and packs the parameter buffer.
     *
     * @throws BackendException naming the parameter (index, name, PTX type) of a mismatched argument
     */
    byte[] parameters(EmulatedFunction.Ptx f, LaunchConfig config, Object[] arguments) {
        long shared = (long) f.kernel().staticSharedBytes() + config.sharedMemoryBytes();
        if (shared > model.maxSharedMemoryPerBlock()) {
            throw new BackendException("kernel '" + f.name() + "': " + f.kernel().staticSharedBytes()
                    + " bytes of static and " + config.sharedMemoryBytes() + " bytes of dynamic shared memory, more "
                    + "than the " + model.maxSharedMemoryPerBlock() + " bytes per block of " + model.name());
        }
        return PtxParameterBlock.pack(f.kernel(), arguments, b -> ((EmulatedBuffer) b).address());
    }

    @Override
    public void close() {
        executor.close();
    }
}
