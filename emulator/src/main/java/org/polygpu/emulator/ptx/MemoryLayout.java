package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.polygpu.emulator.ptx.ParsedModule.Function;
import org.polygpu.emulator.ptx.ParsedModule.Instruction;
import org.polygpu.emulator.ptx.ParsedModule.Space;
import org.polygpu.emulator.ptx.ParsedModule.Statement;
import org.polygpu.emulator.ptx.ParsedModule.Variable;

/**
 * Where a kernel's data lives: the kernel parameters in the parameter buffer (each aligned as declared); every
 * {@code .local} variable and call parameter of the kernel and the functions it calls at a fixed offset of each
 * thread's local memory (sound because recursion is refused); and static shared memory (module-scope variables the
 * code refers to, then function-scope ones), with dynamic ({@code extern}) shared memory after it, aligned to 16.
 *
 * <p>A kernel that reads the reserved shared memory registers ({@code %reserved_smem_offset_begin}, {@code _end},
 * {@code _cap}, {@code _0}, {@code _1}: from {@code compute_80}, where cooperative groups keep multi-warp tile
 * scratch in it) gets {@link #RESERVED_SHARED_BYTES} of it after its static shared memory, as the driver reserves
 * that much per block on those GPUs; the two sub-regions {@code _0} and {@code _1} are its halves.
 */
final class MemoryLayout {
    private final ParsedModule module;
    private final Function kernel;
    private final List<Function> functions;
    private final List<PtxParam> params = new ArrayList<>();
    private final Map<String, Variable> localVariables = new HashMap<>();
    private final Map<String, Long> localOffsets = new HashMap<>();
    private final Map<String, Long> sharedOffsets = new HashMap<>();
    private int localBytes;
    private int staticShared;
    private int dynamicSharedOffset;
    private int reservedShared = -1;

    /** Bytes of reserved shared memory per block. */
    static final int RESERVED_SHARED_BYTES = 1024;
    private static final String RESERVED_PREFIX = "%reserved_smem_offset_";

    MemoryLayout(ParsedModule module, Function kernel, List<Function> functions) {
        this.module = module;
        this.kernel = kernel;
        this.functions = functions;
        layOutParams();
        layOutLocals();
        layOutShared();
    }

    List<PtxParam> params() {
        return List.copyOf(params);
    }

    int localBytes() {
        return localBytes;
    }

    int staticShared() {
        return staticShared;
    }

    int dynamicSharedOffset() {
        return dynamicSharedOffset;
    }

    /**
     * The value of reserved shared memory register {@code name} (such as {@code %reserved_smem_offset_1}), or empty
     * when {@code name} is not one.
     */
    OptionalLong reservedRegister(String name) {
        if (!name.startsWith(RESERVED_PREFIX) || reservedShared < 0) {
            return OptionalLong.empty();
        }
        return switch (name.substring(RESERVED_PREFIX.length())) {
            case "begin", "0" -> OptionalLong.of(reservedShared);
            case "1" -> OptionalLong.of(reservedShared + RESERVED_SHARED_BYTES / 2);
            case "end" -> OptionalLong.of(reservedShared + RESERVED_SHARED_BYTES);
            case "cap" -> OptionalLong.of(RESERVED_SHARED_BYTES);
            default -> OptionalLong.empty();
        };
    }

    /** The local-memory offset of {@code function}'s variable or parameter {@code name}, or {@code null}. */
    Long localOffset(String function, String name) {
        return localOffsets.get(function + "\u0000" + name);
    }

    Variable localVariable(String function, String name) {
        return localVariables.get(function + "\u0000" + name);
    }

    /** The shared-memory offset of {@code name} as seen from {@code function}, or {@code null}. */
    Long sharedOffset(String function, String name) {
        Long offset = sharedOffsets.get(function + "\u0000" + name);
        if (offset == null) {
            offset = sharedOffsets.get(name);
        }
        Variable v = module.variables().get(name);
        if (offset == null && v != null && v.space() == Space.SHARED && v.external()) {
            offset = (long) dynamicSharedOffset;
        }
        return offset;
    }

    private void layOutParams() {
        int offset = 0;
        for (Variable v : kernel.params()) {
            offset = align(offset, v.align());
            params.add(new PtxParam(params.size(), v.name(), v.type(), v.size(), offset));
            offset += v.size();
        }
    }


    private void layOutLocals() {
        long offset = 0;
        for (Function f : functions) {
            List<Variable> vars = new ArrayList<>(f.variables());
            if (f != kernel) {
                vars.addAll(f.params());
                vars.addAll(f.returns());
            }
            for (Variable v : vars) {
                if (v.space() == Space.LOCAL || v.space() == Space.PARAM) {
                    offset = align(offset, v.align());
                    localOffsets.put(f.name() + "\u0000" + v.name(), offset);
                    localVariables.put(f.name() + "\u0000" + v.name(), v);
                    offset += v.size();
                }
            }
        }
        localBytes = (int) align(offset, 8);
    }


    private void layOutShared() {
        Set<String> used = new HashSet<>();
        boolean reserved = false;
        for (Function f : functions) {
            for (Statement s : f.body()) {
                if (s instanceof Instruction in) {
                    in.operands().forEach(o -> symbols(o, used));
                    reserved |= in.operands().stream().anyMatch(o -> o instanceof Operand.Reg r
                            && r.name().startsWith(RESERVED_PREFIX));
                }
            }
        }
        long offset = 0;
        int externAlign = 16;
        for (Variable v : module.variables().values()) {
            if (v.space() == Space.SHARED && v.external()) {
                externAlign = Math.max(externAlign, v.align());
            } else if (v.space() == Space.SHARED && used.contains(v.name())) {
                offset = align(offset, v.align());
                sharedOffsets.put(v.name(), offset);
                offset += v.size();
            }
        }
        for (Function f : functions) {
            for (Variable v : f.variables()) {
                if (v.space() == Space.SHARED) {
                    offset = align(offset, v.align());
                    sharedOffsets.put(f.name() + "\u0000" + v.name(), offset);
                    offset += v.size();
                }
            }
        }
        if (reserved) {
            offset = align(offset, 16);
            reservedShared = (int) offset;
            offset += RESERVED_SHARED_BYTES;
        }
        staticShared = (int) offset;
        dynamicSharedOffset = (int) align(offset, externAlign);
    }


    private static void symbols(Operand o, Set<String> out) {
        switch (o) {
            case Operand.Sym s -> out.add(s.name());
            case Operand.Addr a -> symbols(a.base(), out);
            case Operand.Vec v -> v.elements().forEach(e -> symbols(e, out));
            case Operand.Pair p -> {
                symbols(p.first(), out);
                symbols(p.second(), out);
            }
            default -> { }
        }
    }


    static long align(long offset, long alignment) {
        return alignment <= 1 ? offset : (offset + alignment - 1) / alignment * alignment;
    }


    private static int align(int offset, int alignment) {
        return (int) align((long) offset, alignment);
    }

}
