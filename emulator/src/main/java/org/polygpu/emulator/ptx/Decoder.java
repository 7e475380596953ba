package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.polygpu.backend.BackendException;
import org.polygpu.emulator.ptx.KernelProgram.GlobalSymbol;
import org.polygpu.emulator.ptx.ParsedModule.Function;
import org.polygpu.emulator.ptx.ParsedModule.Instruction;
import org.polygpu.emulator.ptx.ParsedModule.Space;
import org.polygpu.emulator.ptx.ParsedModule.Statement;
import org.polygpu.emulator.ptx.ParsedModule.Variable;

/**
 * The decoder of one kernel of a {@link ParsedModule} into a {@link KernelProgram}: finds the functions it calls
 * (refusing recursion), numbers their registers, lets {@link MemoryLayout} place parameters, local and shared memory,
 * then lets {@link InstructionDecoder} translate each instruction and resolves branch and call targets. Immediates and
 * symbol addresses become constant registers, so every decoded operand is a register.
 *
 * <p>Not thread-safe; one decoder per kernel.
 */
final class Decoder {
    private final ParsedModule module;
    private final Function kernel;
    private final List<Function> functions = new ArrayList<>();
    private final Map<String, Integer> registers = new HashMap<>();
    private final Map<String, PtxType> registerTypes = new HashMap<>();
    private final Map<Long, Integer> constants = new LinkedHashMap<>();
    private final Map<String, Integer> globalSlots = new HashMap<>();
    private final List<GlobalSymbol> globalSymbols = new ArrayList<>();
    private final Map<String, Integer> labels = new HashMap<>();
    private final Map<String, Integer> entries = new HashMap<>();
    private final List<Fixup> fixups = new ArrayList<>();
    private final IntList code = new IntList();
    private final IntList lines = new IntList();
    private final IntList table = new IntList();
    private MemoryLayout layout;
    private Function current;
    private int nextRegister = Specials.COUNT;
    private int maxDepth;
    private boolean orderedCtas;

    /** A branch or call whose target pc is known once every function is emitted. */
    private record Fixup(int slot, String function, String target, boolean call, int line) {
    }

    private Decoder(ParsedModule module, Function kernel) {
        this.module = module;
        this.kernel = kernel;
    }

    static KernelProgram decode(ParsedModule module, Function kernel) {
        return new Decoder(module, kernel).run();
    }

    private KernelProgram run() {
        maxDepth = collect(kernel, new ArrayList<>(), new HashMap<>()) - 1;
        for (Function f : functions) {
            for (ParsedModule.Register r : f.registers()) {
                registers.put(key(f, r.name()), nextRegister++);
                registerTypes.put(key(f, r.name()), r.type());
            }
        }
        layout = new MemoryLayout(module, kernel, functions);
        for (Function f : functions) {
            current = f;
            entries.put(f.name(), code.size() / Op.WIDTH);
            for (Statement s : f.body()) {
                switch (s) {
                    case ParsedModule.Label l -> labels.put(key(f, l.name()), code.size() / Op.WIDTH);
                    case Instruction in -> InstructionDecoder.decode(this, in);
                }
            }
        }
        resolveFixups();
        PtxKernel signature = new PtxKernel(kernel.name(), layout.params(), layout.staticShared(),
                layout.localBytes(), nextRegister);
        return new KernelProgram(signature, code.toArray(), lines.toArray(), table.toArray(), template(),
                List.copyOf(globalSymbols), layout.dynamicSharedOffset(), maxDepth, orderedCtas, module.lines());
    }

    /** Adds {@code f} and its callees depth-first; returns the depth of its call tree. */
    private int collect(Function f, List<String> path, Map<String, Integer> depths) {
        if (path.contains(f.name())) {
            throw new BackendException("PTX line " + f.line() + ": recursive call chain " + String.join(" -> ", path)
                    + " -> " + f.name() + " is not supported by the emulator");
        }
        Integer known = depths.get(f.name());
        if (known != null) {
            return known;
        }
        functions.add(f);
        path.add(f.name());
        int deepest = 0;
        for (Statement s : f.body()) {
            if (s instanceof Instruction in && in.opcode().startsWith("call")) {
                String name = calleeName(in);
                if (DeviceCalls.provided(name) >= 0) {
                    continue;
                }
                Function callee = module.functions().get(name);
                if (callee == null || callee.body().isEmpty()) {
                    throw new BackendException("PTX line " + in.line() + ": call to '" + name
                            + "', which has no body in the module");
                }
                deepest = Math.max(deepest, collect(callee, path, depths));
            }
        }
        path.removeLast();
        depths.put(f.name(), deepest + 1);
        return deepest + 1;
    }

    private String calleeName(Instruction in) {
        for (Operand o : in.operands()) {
            if (o instanceof Operand.Sym s) {
                return s.name();
            }
        }
        throw Modifiers.unsupported(in, "indirect calls are not supported", module.lines());
    }

    private void resolveFixups() {
        for (Fixup f : fixups) {
            Integer pc = f.call() ? entries.get(f.target()) : labels.get(f.function() + "\u0000" + f.target());
            if (pc == null) {
                throw new BackendException("PTX line " + f.line() + ": unknown " + (f.call() ? "function" : "label")
                        + " '" + f.target() + "'");
            }
            code.set(f.slot(), pc);
        }
    }

    private long[] template() {
        long[] t = new long[nextRegister * 32];
        for (Map.Entry<Long, Integer> c : constants.entrySet()) {
            Arrays.fill(t, c.getValue() * 32, c.getValue() * 32 + 32, c.getKey());
        }
        for (int lane = 0; lane < 32; lane++) {
            int bit = 1 << lane;
            t[Specials.LANEID * 32 + lane] = lane;
            t[Specials.LANEMASK_EQ * 32 + lane] = bit;
            t[Specials.LANEMASK_LT * 32 + lane] = bit - 1;
            t[Specials.LANEMASK_LE * 32 + lane] = (bit - 1) | bit;
            t[Specials.LANEMASK_GT * 32 + lane] = ~((bit - 1) | bit) & 0xFFFF_FFFFL;
            t[Specials.LANEMASK_GE * 32 + lane] = ~(bit - 1) & 0xFFFF_FFFFL;
        }
        return t;
    }

    // Services for InstructionDecoder. --------------------------------------------------------------------------------

    List<String> lines() {
        return module.lines();
    }

    BackendException unsupported(Instruction in, String why) {
        return Modifiers.unsupported(in, why, module.lines());
    }

    /** Appends an instruction; returns the index of its first word. */
    int emit(Instruction in, int op, int sub, int d, int a, int b, int c, int x) {
        int at = code.size();
        int guard = -1;
        if (in.guard() != null) {
            guard = (register(in, in.guard()) << 1) | (in.guardNegated() ? 1 : 0);
        }
        code.add(op);
        code.add(sub);
        code.add(guard);
        code.add(d);
        code.add(a);
        code.add(b);
        code.add(c);
        code.add(x);
        lines.add(in.line());
        return at;
    }

    void branch(Instruction in, String label) {
        int at = emit(in, Op.BRA, 0, -1, 0, 0, 0, 0);
        fixups.add(new Fixup(at + Op.D, current.name(), label, false, in.line()));
    }

    /** Emits a call of {@code callee}; argument and return copies are (src, dst, bytes) triples of local offsets. */
    void call(Instruction in, String callee, int[] arguments, int[] returns) {
        int argIndex = table(arguments);
        int retIndex = table(returns);
        int at = emit(in, Op.CALL, 0, -1, argIndex, arguments.length / 3, retIndex, returns.length / 3);
        fixups.add(new Fixup(at + Op.D, current.name(), callee, true, in.line()));
    }

    /** Emits a call of a function {@link DeviceCalls} provides; arguments are (local offset, bytes) pairs. */
    void deviceCall(Instruction in, int which, int[] arguments, int result) {
        emit(in, Op.DEVICE_CALL, which, result, table(arguments), arguments.length / 2, 0, 0);
    }

    int table(int... values) {
        int at = table.size();
        for (int v : values) {
            table.add(v);
        }
        return at;
    }

    void orderCtas() {
        orderedCtas = true;
    }

    Function function(String name) {
        return module.functions().get(name);
    }

    /** The register base (index * 32) of a register operand named {@code name}. */
    int register(Instruction in, String name) {
        Integer r = registers.get(key(current, name));
        if (r == null) {
            OptionalLong reserved = layout.reservedRegister(name);
            if (reserved.isPresent()) {
                return constant(reserved.getAsLong());
            }
            r = Specials.index(name).orElseThrow(() -> unsupported(in, "unknown register " + name));
        }
        return r * 32;
    }

    PtxType registerType(Instruction in, String name) {
        PtxType t = registerTypes.get(key(current, name));
        return t != null ? t : PtxType.U32;
    }

    /** The register holding {@code bits} in every lane. */
    int constant(long bits) {
        return constants.computeIfAbsent(bits, b -> nextRegister++) * 32;
    }

    /** A source operand as a register base; literals are read as {@code type}, symbols give their address. */
    int source(Instruction in, Operand o, PtxType type) {
        return switch (o) {
            case Operand.Reg r -> register(in, r.name());
            case Operand.Imm i -> constant(Literals.bitsAs(i, type));
            case Operand.Sym s when s.name().equals("WARP_SZ") -> constant(32 + s.offset());
            case Operand.Sym s -> symbol(in, s.name(), s.offset(), false);
            default -> throw unsupported(in, "operand " + o + " is not a register, literal or symbol");
        };
    }

    /** A destination register base, or -1 for the sink {@code _} when allowed. */
    int destination(Instruction in, Operand o, boolean sinkAllowed) {
        if (o instanceof Operand.Reg r) {
            return register(in, r.name());
        }
        if (sinkAllowed && o instanceof Operand.Sink) {
            return -1;
        }
        throw unsupported(in, "destination " + o + " is not a register");
    }

    /**
     * The register holding the address of symbol {@code name} plus {@code offset}: in its own state space, or in the
     * generic space when {@code generic}.
     */
    int symbol(Instruction in, String name, long offset, boolean generic) {
        Long local = layout.localOffset(current.name(), name);
        if (local != null) {
            return constant(local + offset + (generic ? Specials.LOCAL_WINDOW : 0));
        }
        Long shared = layout.sharedOffset(current.name(), name);
        Variable v = module.variables().get(name);
        if (shared != null) {
            return constant(shared + offset + (generic ? Specials.SHARED_WINDOW : 0));
        }
        if (v != null && (v.space() == Space.GLOBAL || v.space() == Space.CONST)) {
            return globalSlots.computeIfAbsent(name + "+" + offset, k -> {
                int r = nextRegister++;
                globalSymbols.add(new GlobalSymbol(r, name, offset));
                return r;
            }) * 32;
        }
        throw unsupported(in, "unknown or unsupported symbol '" + name + "'");
    }

    /** The local or parameter variable {@code name} of {@code function}, or {@code null}. */
    Variable localVariable(String function, String name) {
        return layout.localVariable(function, name);
    }

    /** The offset of {@code function}'s local or parameter variable {@code name} in local memory, or -1. */
    long localOffset(String function, String name) {
        Long offset = layout.localOffset(function, name);
        return offset == null ? -1 : offset;
    }

    String currentName() {
        return current.name();
    }

    /** The kernel parameter called {@code name} if the current function is the kernel and has one, else null. */
    PtxParam kernelParam(String name) {
        if (current != kernel) {
            return null;
        }
        for (PtxParam p : layout.params()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    private static String key(Function f, String name) {
        return f.name() + "\u0000" + name;
    }

    /** A growable int array. */
    private static final class IntList {
        private int[] items = new int[256];
        private int size;

        void add(int v) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
            }
            items[size++] = v;
        }

        void set(int index, int v) {
            items[index] = v;
        }

        int size() {
            return size;
        }

        int[] toArray() {
            return Arrays.copyOf(items, size);
        }
    }
}
