package org.polygpu.bench.programs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/** B&S: Black-Scholes call prices of a vector of stock prices, one independent kernel per partition. */
public final class BlackScholes extends PolygpuProgram {
    public static final double STRIKE = 60;
    public static final double RATE = 0.1;
    public static final double VOLATILITY = 0.2;
    public static final double YEARS = 1;
    /**
     * The kernel evaluates about 30 float operations whose terms are at most 120 (price, strike), each within a few
     * ulp (2^-24 relative; logf, expf, sqrtf within 2 ulp), and d1 (|d1| < 10) reaches the price through N' <= 0.4:
     * the error is below 120 * 2^-24 * 30 + 120 * 0.4 * 1e-6, about 3e-4. 1e-3 leaves a margin and still catches any
     * wrong term (the smallest, the discount on a 60 strike, changes prices by several units).
     */
    public static final double TOLERANCE = 1e-3;

    public BlackScholes(Context context) {
        super(context);
    }

    public static void main(String[] args) {
        ProgramLauncher.main(BlackScholes::new, args);
    }

    @Override
    public String name() {
        return "bs";
    }

    @Override
    public int defaultSize() {
        return 100_000;
    }

    @Override
    boolean hasFirstElementsEnding() {
        return true;
    }

    @Override
    public Verdict run(int n, int partitions) {
        Value blackScholes = kernel("bs", "black_scholes(price: in pointer float, call: out pointer float, "
                + "n: sint32, strike: float, rate: float, volatility: float, years: float)");
        float[] prices = new SeededRandom(42).floats(n, 20, 120);
        List<Part> parts = split(n, partitions);
        List<Value> calls = new ArrayList<>();
        for (Part p : parts) {
            Value price = deviceArray(Arrays.copyOfRange(prices, p.offset(), p.offset() + p.count()));
            Value call = newArray("float", p.count());
            launch(blackScholes, blocks(p.count()), BLOCK, price, call, p.count(), (float) STRIKE, (float) RATE,
                    (float) VOLATILITY, (float) YEARS);
            calls.add(call);
        }
        if (!validating()) {
            return unchecked(n, partitions);
        }
        double error = 0;
        if (firstElementsOnly()) {
            for (int q = 0; q < parts.size(); q++) {
                float first = calls.get(q).getArrayElement(0).asFloat();
                error = Math.max(error, Math.abs(first - callPrice(prices[parts.get(q).offset()])));
            }
            return verdict(n, partitions, error <= TOLERANCE, String.format(java.util.Locale.ROOT,
                    "first element of each partition: largest error %.2e (tolerance %s)", error, TOLERANCE));
        }
        for (int q = 0; q < parts.size(); q++) {
            float[] values = readFloats(calls.get(q));
            for (int i = 0; i < values.length; i++) {
                error = Math.max(error, Math.abs(values[i] - callPrice(prices[parts.get(q).offset() + i])));
            }
        }
        return verdict(n, partitions, error <= TOLERANCE,
                String.format(java.util.Locale.ROOT, "largest error %.2e (tolerance %s)", error, TOLERANCE));
    }

    /** The kernel's Abramowitz-Stegun approximation of the cumulative normal distribution, in double. */
    static double cnd(double d) {
        double k = 1 / (1 + 0.2316419 * Math.abs(d));
        double poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978
                + k * 1.330274429))));
        double c = 0.3989422804 * Math.exp(-0.5 * d * d) * poly;
        return d > 0 ? 1 - c : c;
    }

    /** The call price of one stock price, as the kernel computes it but in double. */
    public static double callPrice(double s) {
        double spread = VOLATILITY * Math.sqrt(YEARS);
        double d1 = (Math.log(s / STRIKE) + (RATE + 0.5 * VOLATILITY * VOLATILITY) * YEARS) / spread;
        return s * cnd(d1) - STRIKE * Math.exp(-RATE * YEARS) * cnd(d1 - spread);
    }
}
