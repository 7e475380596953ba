package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.polygpu.backend.BackendException;
import org.polygpu.emulator.ptx.ParsedModule.Instruction;

/**
 * The modifiers of one instruction's opcode ({@code ld.global.v4.f32} → {@code ld} with {@code global}, {@code v4},
 * {@code f32}), consumed by the decoder; whatever it does not consume is an error, so that an unknown modifier is
 * never silently ignored.
 */
final class Modifiers {
    private final Instruction instruction;
    private final String base;
    private final List<String> rest;
    private final List<String> lines;

    Modifiers(Instruction instruction, List<String> lines) {
        this.instruction = instruction;
        this.lines = lines;
        List<String> parts = new ArrayList<>(Arrays.asList(instruction.opcode().split("\\.")));
        this.base = parts.removeFirst();
        this.rest = parts;
    }

    String base() {
        return base;
    }

    Instruction instruction() {
        return instruction;
    }

    /** Removes {@code modifier} if present and says whether it was. */
    boolean take(String modifier) {
        return rest.remove(modifier);
    }

    /** Removes and returns the first of {@code options} present, or {@code null}. */
    String takeAny(String... options) {
        for (String o : options) {
            if (rest.remove(o)) {
                return o;
            }
        }
        return null;
    }

    /** Removes modifiers that do not change what the emulator computes (scopes, orderings, cache hints). */
    void ignore(String... modifiers) {
        for (String m : modifiers) {
            rest.remove(m);
        }
        rest.removeIf(m -> m.contains("::") && !m.startsWith("shared"));
    }

    /** Removes every type modifier and returns them in order. */
    List<PtxType> types() {
        List<PtxType> types = new ArrayList<>();
        rest.removeIf(m -> PtxType.of(m).map(types::add).orElse(false));
        return types;
    }

    /** The single type modifier. */
    PtxType type() {
        List<PtxType> types = types();
        if (types.size() != 1) {
            throw unsupported(types.isEmpty() ? "no type given" : "more than one type given");
        }
        return types.getFirst();
    }

    /** @throws BackendException naming the first modifier nothing consumed */
    void done() {
        if (!rest.isEmpty()) {
            throw unsupported("modifier ." + rest.getFirst() + " is not supported");
        }
    }

    BackendException unsupported(String why) {
        return unsupported(instruction, why, lines);
    }

    static BackendException unsupported(Instruction in, String why, List<String> lines) {
        int line = in.line();
        String text = line >= 1 && line <= lines.size() ? ": " + lines.get(line - 1).strip() : "";
        return new BackendException("PTX line " + line + ": unsupported instruction '" + in.opcode() + "' (" + why
                + ")" + text);
    }
}
