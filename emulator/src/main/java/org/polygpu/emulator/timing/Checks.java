package org.polygpu.emulator.timing;

/** The argument checks of the specification records: each failure names the parameter and the value. */
final class Checks {
    private Checks() {
    }

    static double positive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be positive and finite, got " + value);
        }
        return value;
    }

    static double nonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be zero or more and finite, got " + value);
        }
        return value;
    }
}
