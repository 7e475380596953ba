package org.polygpu.emulator.timing;

import java.util.function.ToDoubleFunction;

/**
 * Minimises a function of positive parameters by coordinate descent in log space: for each parameter in turn, a
 * scan over factors {@code 1/RANGE .. RANGE} of its current value, then a golden-section refinement around the best
 * point, then a move along the direction of the whole sweep (a pattern move, for parameters that trade off against
 * each other), repeated until a sweep improves the objective by less than a part in 10^12. The parameters of a
 * timing model enter through maxima, so the objective is continuous but not smooth; the scan keeps the search from
 * stopping at a kink. Deterministic.
 */
public final class LogLeastSquares {
    /** How far from its current value one scan looks, as a factor. */
    static final double RANGE = 30;
    private static final int SCAN = 61;
    private static final int SWEEPS = 200;
    private static final double GOLDEN = (Math.sqrt(5) - 1) / 2;

    private LogLeastSquares() {
    }

    /**
     * The parameters (all positive) that minimise {@code objective}, starting from {@code start}.
     *
     * @param objective what to minimise, given the parameters (not their logs)
     */
    public static double[] minimise(double[] start, ToDoubleFunction<double[]> objective) {
        double[] x = new double[start.length];
        for (int i = 0; i < start.length; i++) {
            if (!(start[i] > 0)) {
                throw new IllegalArgumentException("parameter " + i + " must start positive, got " + start[i]);
            }
            x[i] = Math.log(start[i]);
        }
        double best = eval(objective, x);
        for (int sweep = 0; sweep < SWEEPS; sweep++) {
            double before = best;
            double[] previous = x.clone();
            for (int i = 0; i < x.length; i++) {
                best = coordinate(objective, x, i, best);
            }
            best = pattern(objective, x, previous, best);
            if (before - best <= 1e-12 * Math.max(1e-300, before)) {
                break;
            }
        }
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.exp(x[i]);
        }
        return out;
    }

    /** The sum of squared logs of {@code predicted[i] / measured[i]}. */
    public static double squaredLogErrors(double[] predicted, double[] measured) {
        double sum = 0;
        for (int i = 0; i < predicted.length; i++) {
            double e = Math.log(predicted[i] / measured[i]);
            sum += e * e;
        }
        return sum;
    }

    /**
     * A move along the direction the last sweep took ({@code x - previous}), as far as it keeps improving: what
     * crosses a valley that no single parameter can (two parameters that trade off against each other).
     */
    private static double pattern(ToDoubleFunction<double[]> objective, double[] x, double[] previous,
            double current) {
        double[] from = x.clone();
        double best = current;
        double bestStep = 0;
        for (double step = 1; step <= 64; step *= 2) {
            double[] candidate = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                candidate[i] = from[i] + step * (from[i] - previous[i]);
            }
            double f = eval(objective, candidate);
            if (!(f < best)) {
                break;
            }
            best = f;
            bestStep = step;
        }
        for (int i = 0; i < x.length; i++) {
            x[i] = from[i] + bestStep * (from[i] - previous[i]);
        }
        return best;
    }

    private static double coordinate(ToDoubleFunction<double[]> objective, double[] x, int i, double current) {
        double center = x[i];
        double step = 2 * Math.log(RANGE) / (SCAN - 1);
        double bestAt = center;
        double best = current;
        for (int k = 0; k < SCAN; k++) {
            x[i] = center - Math.log(RANGE) + k * step;
            double f = eval(objective, x);
            if (f < best) {
                best = f;
                bestAt = x[i];
            }
        }
        double lo = bestAt - step;
        double hi = bestAt + step;
        for (int k = 0; k < 40; k++) {
            double a = hi - GOLDEN * (hi - lo);
            double b = lo + GOLDEN * (hi - lo);
            x[i] = a;
            double fa = eval(objective, x);
            x[i] = b;
            double fb = eval(objective, x);
            if (fa < fb) {
                hi = b;
                if (fa < best) {
                    best = fa;
                    bestAt = a;
                }
            } else {
                lo = a;
                if (fb < best) {
                    best = fb;
                    bestAt = b;
                }
            }
        }
        x[i] = bestAt;
        return best;
    }

    private static double eval(ToDoubleFunction<double[]> objective, double[] logs) {
        double[] p = new double[logs.length];
        for (int i = 0; i < logs.length; i++) {
            p[i] = Math.exp(logs[i]);
        }
        double f = objective.applyAsDouble(p);
        return Double.isNaN(f) ? Double.MAX_VALUE : f;
    }
}
