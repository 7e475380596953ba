package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.polygpu.backend.BackendException;
import org.polygpu.emulator.ptx.ParsedModule.Function;
import org.polygpu.emulator.ptx.ParsedModule.Space;
import org.polygpu.emulator.ptx.ParsedModule.Variable;

/**
 * A PTX module parsed and decoded for the interpreter: its kernels ({@code .entry} functions, each decoded with the
 * functions it calls) and its module variables. Parsing checks everything the interpreter will need, so a module
 * that loads has no unsupported instruction left to discover at launch.
 *
 * <p>Immutable and thread-safe; one parsed module serves every device it is loaded on.
 */
public final class PtxModule {
    private final ParsedModule parsed;
    private final Map<String, KernelProgram> programs = new LinkedHashMap<>();
    private final List<ModuleVariable> variables = new ArrayList<>();
    private final boolean usesDeviceHeap;

    private PtxModule(ParsedModule parsed) {
        this.parsed = parsed;
        this.usesDeviceHeap = parsed.functions().keySet().stream().anyMatch(n -> DeviceCalls.provided(n)
                == DeviceCalls.MALLOC || DeviceCalls.provided(n) == DeviceCalls.FREE);
        for (Function f : parsed.functions().values()) {
            if (f.entry() && !f.body().isEmpty()) {
                programs.put(f.name(), Decoder.decode(parsed, f));
            }
        }
        for (Variable v : parsed.variables().values()) {
            if (v.space() == Space.GLOBAL || v.space() == Space.CONST) {
                if (v.external()) {
                    throw new BackendException("PTX line " + v.line() + ": extern variable '" + v.name()
                            + "' is defined in another module; linking modules is not supported");
                }
                for (ModuleVariable.Relocation r : v.relocations()) {
                    Variable target = parsed.variables().get(r.symbol());
                    if (target == null || (target.space() != Space.GLOBAL && target.space() != Space.CONST)) {
                        throw new BackendException("PTX line " + v.line() + ": the initialiser of '" + v.name()
                                + "' takes the address of '" + r.symbol()
                                + "', which is not a .global or .const variable of the module");
                    }
                }
                variables.add(new ModuleVariable(v.name(), v.space() == Space.CONST, v.size(), v.init(),
                        v.relocations()));
            }
        }
    }

    /**
     * Parses and decodes PTX as NVRTC emits it.
     *
     * @throws BackendException naming the PTX line and the construct (directive, opcode, modifier) that is
     *                          malformed or not supported
     */
    public static PtxModule parse(String text) {
        return new PtxModule(PtxParser.parse(text));
    }

    /** The kernel names, in the order the module defines them. */
    public List<String> kernelNames() {
        return List.copyOf(programs.keySet());
    }

    public Optional<PtxKernel> kernel(String name) {
        KernelProgram p = programs.get(name);
        return p == null ? Optional.empty() : Optional.of(p.kernel());
    }

    /** Module-scope {@code .global} and {@code .const} variables, which each device needs allocated. */
    public List<ModuleVariable> variables() {
        return List.copyOf(variables);
    }

    /** Whether the module calls {@code malloc} or {@code free}, so that its kernels need the device heap. */
    public boolean usesDeviceHeap() {
        return usesDeviceHeap;
    }

    /** The {@code .target} directive, e.g. {@code sm_70}. */
    public String target() {
        return parsed.target();
    }

    /** The {@code .version} directive, e.g. {@code 8.8}. */
    public String version() {
        return parsed.version();
    }

    KernelProgram program(String name) {
        KernelProgram p = programs.get(name);
        if (p == null) {
            throw new BackendException("no kernel '" + name + "' in the module; its kernels are " + kernelNames());
        }
        return p;
    }
}
