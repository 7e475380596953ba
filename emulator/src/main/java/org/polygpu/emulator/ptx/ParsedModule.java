package org.polygpu.emulator.ptx;

import java.util.List;
import java.util.Map;

/**
 * A PTX module as parsed, before decoding: module variables and functions, with every name declared in a nested
 * scope already renamed to a unique name so that later stages see flat namespaces.
 *
 * @param version     the {@code .version} directive, e.g. {@code 8.8}
 * @param target      the {@code .target} directive, e.g. {@code sm_70}
 * @param variables   module-level {@code .global}, {@code .const} and {@code .shared} variables by name
 * @param functions   {@code .entry} and {@code .func} definitions by name, in order of appearance
 * @param lines       the source lines, for messages
 */
record ParsedModule(String version, String target, Map<String, Variable> variables,
                    Map<String, Function> functions, List<String> lines) {

    /** A state space a variable lives in. */
    enum Space { GLOBAL, CONST, SHARED, LOCAL, PARAM }

    /**
     * A declared variable of a state space.
     *
     * @param size    bytes; 0 for an {@code extern} array of unknown size (dynamic shared memory)
     * @param init    initial bytes, at most {@code size} (the rest is zero), or empty
     * @param relocations addresses of variables to write into the initial bytes
     */
    record Variable(String name, Space space, PtxType type, int size, int align, boolean external, byte[] init,
                    List<ModuleVariable.Relocation> relocations, int line) {
    }

    /** A register declaration; {@code %r<4>} is expanded into {@code %r0} .. {@code %r3}. */
    record Register(String name, PtxType type) {
    }

    /** A statement of a function body. */
    sealed interface Statement permits Label, Instruction {
    }

    record Label(String name, int line) implements Statement {
    }

    /**
     * An instruction: {@code opcode} with its modifiers (e.g. {@code ld.global.f32}), operands, and the guard
     * predicate ({@code null} when unguarded).
     */
    record Instruction(String opcode, List<Operand> operands, String guard, boolean guardNegated, int line)
            implements Statement {
    }

    /**
     * A function: parameters (for an entry, the kernel parameters; for a {@code .func}, the formal parameters),
     * return parameters, registers, variables declared inside (local depots, static shared, call-site parameters)
     * and the body.
     */
    record Function(String name, boolean entry, List<Variable> params, List<Variable> returns,
                    List<Register> registers, List<Variable> variables, List<Statement> body, int line) {
    }
}
