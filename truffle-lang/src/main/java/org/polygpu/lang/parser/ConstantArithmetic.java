package org.polygpu.lang.parser;

/**
 * Folds constant expressions: 64-bit integer arithmetic that fails on overflow and division by zero, or
 * floating point once a floating-point literal takes part.
 */
final class ConstantArithmetic {
    private ConstantArithmetic() {
    }

    static Number literal(Token t, SyntaxErrors errors) {
        try {
            if (t.kind() == Token.Kind.FLOAT) {
                return Double.parseDouble(t.text());
            }
            return Long.parseLong(t.text());
        } catch (NumberFormatException e) {
            throw errors.at(t.start(), t.length(), "number " + t.text() + " does not fit 64 bits");
        }
    }

    static Number negate(Token op, Number n, SyntaxErrors errors) {
        if (n instanceof Long l) {
            if (l == Long.MIN_VALUE) {
                throw errors.at(op.start(), 1, "-(" + l + ") overflows 64 bits");
            }
            return -l;
        }
        return -n.doubleValue();
    }

    static Number apply(Token op, Number a, Number b, SyntaxErrors errors) {
        if (a instanceof Long x && b instanceof Long y) {
            try {
                return switch (op.text()) {
                    case "+" -> Math.addExact(x, y);
                    case "-" -> Math.subtractExact(x, y);
                    case "*" -> Math.multiplyExact(x, y);
                    case "/" -> Math.divideExact(x, y);
                    default -> x % y;
                };
            } catch (ArithmeticException e) {
                String what = y == 0 && (op.is("/") || op.is("%")) ? "division by zero" : "overflows 64 bits";
                throw errors.at(op.start(), 1, x + " " + op.text() + " " + y + ": " + what);
            }
        }
        double x = a.doubleValue();
        double y = b.doubleValue();
        return switch (op.text()) {
            case "+" -> x + y;
            case "-" -> x - y;
            case "*" -> x * y;
            case "/" -> x / y;
            default -> x % y;
        };
    }
}
