package org.polygpu.bench.programs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/**
 * CG: conjugate gradient on a dense symmetric positive definite n x n matrix, its rows split in partitions. Each
 * iteration runs, per partition: matvec, dot_slice + accumulate (p.Ap), update_xr, norm2 + accumulate (r.r) and
 * update_p. The search direction p is one array that every partition reads whole and updates in its own slice
 * (declared inout, so those updates follow one another: a correct alternative to writing disjoint parts of an
 * array declared read-only, which explicit replicas would lose).
 */
public final class ConjugateGradient extends PolygpuProgram {
    /**
     * A = 2 I + symmetric off-diagonal entries in [0, 1/n): by Gershgorin its eigenvalues lie in (1, 3), so CG
     * contracts the error by (sqrt(3) - 1) / (sqrt(3) + 1) < 0.27 per iteration and damps what float rounding adds,
     * at most n 2^-24 relative per dot product or matrix row (1.2e-4 at n = 2000). x agrees with the double
     * reference run of the same iterations to well within 1e-3 of its largest entry.
     */
    public static final double TOLERANCE = 1e-3;

    private final int iterations;

    public ConjugateGradient(Context context, int iterations) {
        super(context);
        this.iterations = iterations;
    }

    public ConjugateGradient(Context context) {
        this(context, 10);
    }

    /** Arguments: [n] [partitions] [iterations=10]. */
    public static void main(String[] args) {
        List<String> positional = Arrays.stream(args).filter(a -> !a.startsWith("--")).toList();
        int iterations = positional.size() > 2 ? Integer.parseInt(positional.get(2)) : 10;
        ProgramLauncher.main(c -> new ConjugateGradient(c, iterations), args);
    }

    @Override
    public String name() {
        return "cg";
    }

    @Override
    public int defaultSize() {
        return 2000;
    }

    @Override
    public Verdict run(int n, int partitions) {
        Value matvec = kernel("cg", "matvec(a: in pointer float, p: in pointer float, y: out pointer float, "
                + "rows: sint32, n: sint32)");
        Value dotSlice = kernel("cg", "dot_slice(p: in pointer float, offset: sint32, y: in pointer float, "
                + "out: out pointer float, rows: sint32)");
        Value norm2 = kernel("cg", "norm2(r: in pointer float, out: out pointer float, rows: sint32)");
        Value accumulate = kernel("cg",
                "accumulate(part: in pointer float, total: inout pointer float, first: sint32)");
        Value updateXr = kernel("cg", "update_xr(x: inout pointer float, r: inout pointer float, "
                + "p: in pointer float, offset: sint32, y: in pointer float, rr: in pointer float, "
                + "pap: in pointer float, rows: sint32)");
        Value updateP = kernel("cg", "update_p(p: inout pointer float, offset: sint32, r: in pointer float, "
                + "rr_new: in pointer float, rr: in pointer float, rows: sint32)");
        SeededRandom random = new SeededRandom(42);
        float[][] a = new float[n][n];
        for (int i = 0; i < n; i++) {
            a[i][i] = 2;
            for (int j = i + 1; j < n; j++) {
                a[i][j] = (float) (random.uniform(24) / n);
                a[j][i] = a[i][j];
            }
        }
        float[] b = random.floats(n, 0, 1);

        List<Part> parts = split(n, partitions);
        int count = parts.size();
        Value p = deviceArray(b);
        List<Value> as = new ArrayList<>();
        List<Value> xs = new ArrayList<>();
        List<Value> rs = new ArrayList<>();
        List<Value> ys = new ArrayList<>();
        List<Value> part = new ArrayList<>();
        for (Part q : parts) {
            float[] block = new float[q.count() * n];
            for (int r = 0; r < q.count(); r++) {
                System.arraycopy(a[q.offset() + r], 0, block, r * n, n);
            }
            as.add(deviceArray(block));
            xs.add(deviceArray(new float[q.count()]));
            rs.add(deviceArray(Arrays.copyOfRange(b, q.offset(), q.offset() + q.count())));
            ys.add(newArray("float", q.count()));
            part.add(newArray("float", 1));
        }
        Value rr = newArray("float", 1);
        Value rrNew = newArray("float", 1);
        Value pap = newArray("float", 1);
        // total[0] = the sum over partitions of what reduction(q) writes in part[q], one accumulation after another.
        record Reduction(List<Value> part, Value accumulate, int count) {
            void into(Value total, IntConsumer reduction) {
                for (int q = 0; q < count; q++) {
                    reduction.accept(q);
                    launch(accumulate, 1, 1, part.get(q), total, q == 0 ? 1 : 0);
                }
            }
        }
        Reduction reduce = new Reduction(part, accumulate, count);
        reduce.into(rr, q -> launch(norm2, 1, BLOCK, rs.get(q), part.get(q), parts.get(q).count()));
        for (int k = 0; k < iterations; k++) {
            for (int q = 0; q < count; q++) {
                launch(matvec, blocks(parts.get(q).count()), BLOCK, as.get(q), p, ys.get(q), parts.get(q).count(), n);
            }
            reduce.into(pap, q -> launch(dotSlice, 1, BLOCK, p, parts.get(q).offset(), ys.get(q), part.get(q),
                    parts.get(q).count()));
            for (int q = 0; q < count; q++) {
                Part s = parts.get(q);
                launch(updateXr, blocks(s.count()), BLOCK, xs.get(q), rs.get(q), p, s.offset(), ys.get(q), rr, pap,
                        s.count());
            }
            Value next = rrNew;
            reduce.into(next, q -> launch(norm2, 1, BLOCK, rs.get(q), part.get(q), parts.get(q).count()));
            for (int q = 0; q < count; q++) {
                Part s = parts.get(q);
                launch(updateP, blocks(s.count()), BLOCK, p, s.offset(), rs.get(q), next, rr, s.count());
            }
            rrNew = rr;
            rr = next;
        }
        if (!validating()) {
            return unchecked(n, partitions);
        }
        double[] expected = reference(a, b, iterations);
        double largest = Arrays.stream(expected).map(Math::abs).max().orElseThrow();
        double error = 0;
        for (int q = 0; q < count; q++) {
            float[] x = readFloats(xs.get(q));
            for (int i = 0; i < x.length; i++) {
                error = Math.max(error, Math.abs(x[i] - expected[parts.get(q).offset() + i]) / largest);
            }
        }
        return verdict(n, partitions, error <= TOLERANCE, String.format(java.util.Locale.ROOT,
                "%d iterations, largest error %.2e of max|x| (tolerance %s)", iterations, error, TOLERANCE));
    }

    /** The same iterations in double. */
    public static double[] reference(float[][] a, float[] b, int iterations) {
        int n = b.length;
        double[] x = new double[n];
        double[] r = new double[n];
        double[] p = new double[n];
        for (int i = 0; i < n; i++) {
            r[i] = b[i];
            p[i] = b[i];
        }
        double rr = dot(r, r);
        for (int k = 0; k < iterations; k++) {
            double[] ap = new double[n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    ap[i] += a[i][j] * p[j];
                }
            }
            double alpha = rr / dot(p, ap);
            for (int i = 0; i < n; i++) {
                x[i] += alpha * p[i];
                r[i] -= alpha * ap[i];
            }
            double next = dot(r, r);
            for (int i = 0; i < n; i++) {
                p[i] = r[i] + next / rr * p[i];
            }
            rr = next;
        }
        return x;
    }

    private static double dot(double[] u, double[] v) {
        double sum = 0;
        for (int i = 0; i < u.length; i++) {
            sum += u[i] * v[i];
        }
        return sum;
    }
}
