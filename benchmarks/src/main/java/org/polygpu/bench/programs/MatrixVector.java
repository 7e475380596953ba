package org.polygpu.bench.programs;

import java.util.ArrayList;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/** MUL: a dense n x n matrix times a dense vector; each partition multiplies its block of rows by the vector. */
public final class MatrixVector extends PolygpuProgram {
    public MatrixVector(Context context) {
        super(context);
    }

    public static void main(String[] args) {
        ProgramLauncher.main(MatrixVector::new, args);
    }

    @Override
    public String name() {
        return "mul";
    }

    @Override
    public int defaultSize() {
        return 2000;
    }

    @Override
    public Verdict run(int n, int partitions) {
        Value matvec = kernel("mul", "matvec(a: in pointer float, x: in pointer float, z: out pointer float, "
                + "rows: sint32, cols: sint32)");
        SeededRandom random = new SeededRandom(42);
        float[] x = random.floats(n, -1, 1);
        Value xs = deviceArray(x);
        List<float[]> blocks = new ArrayList<>();
        List<Value> results = new ArrayList<>();
        for (Part p : split(n, partitions)) {
            float[] block = random.floats(p.count() * n, -1, 1);
            Value z = newArray("float", p.count());
            launch(matvec, blocks(p.count()), BLOCK, deviceArray(block), xs, z, p.count(), n);
            blocks.add(block);
            results.add(z);
        }
        if (!validating()) {
            return unchecked(n, partitions);
        }
        double worst = 0;
        for (int q = 0; q < blocks.size(); q++) {
            float[] z = readFloats(results.get(q));
            for (int r = 0; r < z.length; r++) {
                worst = Math.max(worst, errorOverBound(blocks.get(q), x, r, z[r]));
            }
        }
        boolean ok = worst <= 1;
        return verdict(n, partitions, ok,
                String.format(java.util.Locale.ROOT, "largest error %.3f of its rounding bound", worst));
    }

    /**
     * The error of {@code z}, row {@code r} of {@code block} times {@code x}, over its rounding bound: a float sum of
     * n products, each rounded, is within n 2^-24 sum|a_ij x_j| of the exact value (the classic bound gamma_n); twice
     * that allows for the product roundings. At most 1 when the row is right.
     */
    public static double errorOverBound(float[] block, float[] x, int r, float z) {
        int n = x.length;
        double exact = 0;
        double magnitude = 0;
        for (int j = 0; j < n; j++) {
            exact += (double) block[r * n + j] * x[j];
            magnitude += Math.abs((double) block[r * n + j] * x[j]);
        }
        double bound = 2 * n * Math.scalb(1.0, -24) * magnitude;
        return bound > 0 ? Math.abs(z - exact) / bound : Math.abs(z - exact) == 0 ? 0 : Double.POSITIVE_INFINITY;
    }
}
