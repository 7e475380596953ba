package org.polygpu.config;

/** How dependencies are inferred between computations (paper §III-A). */
public enum DependencyPolicy implements OptionValue {
    /** Every access to a shared array is ordered, reads included. */
    NO_CONST("no-const"),
    /** Readers of an array run concurrently; only writes order work; redundant edges are removed. */
    WITH_CONST("with-const");

    private final String value;

    DependencyPolicy(String value) {
        this.value = value;
    }

    @Override
    public String optionValue() {
        return value;
    }
}
