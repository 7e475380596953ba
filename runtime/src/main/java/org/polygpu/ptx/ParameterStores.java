package org.polygpu.ptx;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the stores and atomics of one PTX entry whose address derives from a pointer parameter: a static data-flow
 * analysis over the entry's registers, flow-insensitive (NVRTC writes each virtual register once, so little is lost).
 *
 * <p>A register holds parameter {@code i} when it is loaded from {@code [entry_param_i]}; any instruction other than
 * a load, a store or a comparison passes what its sources hold to its destination ({@code cvta}, {@code add},
 * {@code mad.wide}, {@code mov}, ...); the analysis runs to a fixed point. A {@code st}, {@code atom} or {@code red}
 * to global or generic memory whose address register holds parameter {@code i} is a store through it. Pointers that
 * cross a non-inlined call or go through memory are not followed, so the analysis can miss a store but not invent
 * one; it is meant for warnings.
 */
public final class ParameterStores {
    /** A store or atomic through pointer parameter {@code parameter}, at {@code line} (1-based) of the PTX. */
    public record Store(int parameter, int line, String instruction) {
    }

    private static final Pattern REGISTER = Pattern.compile("%[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern ADDRESS = Pattern.compile("\\[([^\\]]*)\\]");

    private ParameterStores() {
    }

    /**
     * The entry of {@code ptx} that a kernel named {@code name} compiled to: the entry called {@code name}, else the
     * only entry (a name expression such as {@code inc<int>} or a C++ name compiles to a mangled entry), else the
     * only entry whose name contains the identifier {@code name} starts with; empty when that is ambiguous.
     */
    public static Optional<String> entry(String ptx, String name) {
        List<String> entries = new ArrayList<>();
        Matcher m = Pattern.compile("\\.entry\\s+([A-Za-z_$][A-Za-z0-9_$]*)\\s*\\(").matcher(ptx);
        while (m.find()) {
            entries.add(m.group(1));
        }
        if (entries.contains(name)) {
            return Optional.of(name);
        }
        if (entries.size() == 1) {
            return Optional.of(entries.get(0));
        }
        Matcher id = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*").matcher(name);
        List<String> containing = id.find()
                ? entries.stream().filter(e -> e.contains(id.group())).toList() : List.of();
        return containing.size() == 1 ? Optional.of(containing.get(0)) : Optional.empty();
    }

    /**
     * The stores through pointer parameters of entry {@code entry} in {@code ptx}, in PTX order; empty when the PTX
     * holds no such entry.
     */
    public static List<Store> of(String ptx, String entry) {
        Objects.requireNonNull(ptx, "ptx");
        Objects.requireNonNull(entry, "entry");
        List<Instruction> body = body(ptx, entry);
        Map<String, Integer> params = new HashMap<>();
        for (Instruction in : body) {
            if (in.opcode.startsWith("ld.param") && in.operands.size() == 2) {
                Matcher m = ADDRESS.matcher(in.operands.get(1));
                if (m.find()) {
                    params.put(in.operands.get(0), paramIndex(m.group(1), entry));
                }
            }
        }
        Map<String, BitSet> holds = new HashMap<>();
        params.forEach((register, index) -> {
            if (index >= 0) {
                holds.computeIfAbsent(register, r -> new BitSet()).set(index);
            }
        });
        propagate(body, holds);
        List<Store> stores = new ArrayList<>();
        for (Instruction in : body) {
            String address = storeAddress(in);
            if (address == null) {
                continue;
            }
            Matcher r = REGISTER.matcher(address);
            BitSet through = r.find() ? holds.get(r.group()) : null;
            if (through != null) {
                through.stream().forEach(p -> stores.add(new Store(p, in.line, in.text)));
            }
        }
        return stores;
    }

    private static void propagate(List<Instruction> body, Map<String, BitSet> holds) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Instruction in : body) {
                if (!passesPointers(in.opcode) || in.operands.size() < 2) {
                    continue;
                }
                BitSet sources = new BitSet();
                for (String operand : in.operands.subList(1, in.operands.size())) {
                    Matcher r = REGISTER.matcher(operand);
                    while (r.find()) {
                        BitSet s = holds.get(r.group());
                        if (s != null) {
                            sources.or(s);
                        }
                    }
                }
                Matcher d = REGISTER.matcher(in.operands.get(0));
                if (!sources.isEmpty() && d.find()) {
                    BitSet dest = holds.computeIfAbsent(d.group(), r -> new BitSet());
                    int before = dest.cardinality();
                    dest.or(sources);
                    changed |= dest.cardinality() != before;
                }
            }
        }
    }

    private static boolean passesPointers(String opcode) {
        return !(opcode.startsWith("ld") || opcode.startsWith("st") || opcode.startsWith("atom")
                || opcode.startsWith("red") || opcode.startsWith("setp") || opcode.startsWith("set.")
                || opcode.startsWith("bra") || opcode.startsWith("call") || opcode.startsWith("ret")
                || opcode.startsWith("bar") || opcode.startsWith("membar") || opcode.startsWith("prefetch"));
    }

    /** The address operand of a store, atomic or reduction to global or generic memory, else null. */
    private static String storeAddress(Instruction in) {
        String op = in.opcode;
        boolean store = op.startsWith("st.") && !op.startsWith("st.param") && !op.startsWith("st.async");
        boolean atomic = op.startsWith("atom.");
        boolean reduction = op.startsWith("red.");
        if (!(store || atomic || reduction) || op.contains(".shared") || op.contains(".local")
                || op.contains(".param") || op.contains(".const")) {
            return null;
        }
        int index = atomic ? 1 : 0;
        return in.operands.size() > index && in.operands.get(index).contains("[") ? in.operands.get(index) : null;
    }

    /** {@code i} for {@code entry_param_i} (an offset such as {@code +8} allowed), or -1. */
    private static int paramIndex(String address, String entry) {
        String prefix = entry + "_param_";
        String name = address.strip();
        int plus = name.indexOf('+');
        if (plus >= 0) {
            name = name.substring(0, plus).strip();
        }
        if (!name.startsWith(prefix)) {
            return -1;
        }
        try {
            return Integer.parseInt(name.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private record Instruction(int line, String opcode, List<String> operands, String text) {
    }

    /** The instructions of {@code entry}'s body, one per statement, with their line numbers. */
    private static List<Instruction> body(String ptx, String entry) {
        List<Instruction> out = new ArrayList<>();
        String[] lines = ptx.split("\n", -1);
        int start = -1;
        Pattern header = Pattern.compile("\\.entry\\s+" + Pattern.quote(entry) + "\\s*\\(");
        for (int i = 0; i < lines.length && start < 0; i++) {
            if (header.matcher(lines[i]).find()) {
                start = i;
            }
        }
        if (start < 0) {
            return out;
        }
        int depth = 0;
        boolean inBody = false;
        for (int i = start; i < lines.length; i++) {
            String line = lines[i];
            int comment = line.indexOf("//");
            if (comment >= 0) {
                line = line.substring(0, comment);
            }
            for (char c : line.toCharArray()) {
                if (c == '{') {
                    depth++;
                    inBody = true;
                } else if (c == '}') {
                    depth--;
                }
            }
            String statement = line.strip();
            if (inBody && statement.endsWith(";") && !statement.startsWith(".")) {
                out.add(parse(i + 1, statement.substring(0, statement.length() - 1).strip()));
            }
            if (inBody && depth == 0) {
                break;
            }
        }
        return out;
    }

    private static Instruction parse(int line, String statement) {
        String s = statement;
        if (s.startsWith("@")) {
            int space = s.indexOf(' ');
            s = space < 0 ? "" : s.substring(space + 1).strip();
        }
        int space = s.indexOf(' ');
        String opcode = space < 0 ? s : s.substring(0, space);
        String rest = space < 0 ? "" : s.substring(space + 1);
        List<String> operands = new ArrayList<>();
        for (String o : rest.split(",")) {
            if (!o.isBlank()) {
                operands.add(o.strip());
            }
        }
        return new Instruction(line, opcode.strip(), operands, statement);
    }
}
