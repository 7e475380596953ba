package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nested name scopes of one function body while it is parsed. Names declared in the function's top scope keep
 * their names; names declared in a nested block (the parameters and registers of each call sequence) are renamed
 * {@code name#n}, and references resolve to the innermost declaration, so that later stages see flat namespaces.
 */
final class Scopes {
    private final List<Map<String, String>> stack = new ArrayList<>();
    private final Map<String, Boolean> registers = new HashMap<>();
    private int renamed;

    void reset() {
        stack.clear();
        registers.clear();
        stack.add(new HashMap<>()); // parameters
    }

    int depth() {
        return stack.size() - 1;
    }

    void push() {
        stack.add(new HashMap<>());
    }

    void pop() {
        stack.removeLast();
    }

    String declare(String name) {
        String unique = depth() <= 1 ? name : name + "#" + (++renamed);
        stack.getLast().put(name, unique);
        return unique;
    }

    String resolve(String name) {
        for (int i = stack.size() - 1; i >= 0; i--) {
            String u = stack.get(i).get(name);
            if (u != null) {
                return u;
            }
        }
        return name;
    }

    /** Registers are the names starting with {@code %} and the ones declared with {@code .reg}. */
    boolean isRegister(String resolved, String written) {
        return written.startsWith("%") || registers.containsKey(resolved);
    }

    String declareRegister(String name) {
        String unique = declare(name);
        registers.put(unique, Boolean.TRUE);
        return unique;
    }
}
