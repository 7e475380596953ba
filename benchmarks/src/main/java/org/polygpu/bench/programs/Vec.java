package org.polygpu.bench.programs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/** VEC: {@code sum(x^2 - y^2)} over two vectors; each partition runs square(x), square(y), diff_sum. */
public final class Vec extends PolygpuProgram {
    public Vec(Context context) {
        super(context);
    }

    public static void main(String[] args) {
        ProgramLauncher.main(Vec::new, args);
    }

    @Override
    public String name() {
        return "vec";
    }

    @Override
    public int defaultSize() {
        return 100_000;
    }

    @Override
    public Verdict run(int n, int partitions) {
        Value square = kernel("vec", "square(x: inout pointer float, n: sint32)");
        Value diffSum = kernel("vec",
                "diff_sum(x: in pointer float, y: in pointer float, acc: inout pointer double, n: sint32)");
        // Multiples of 2^-6 in [0, 1): every square has at most 12 significant bits and every difference of squares
        // is a multiple of 2^-12 below 1, so the kernels' float arithmetic and double sums are exact, as is the
        // reference: the result must equal it.
        SeededRandom random = new SeededRandom(42);
        float[] x = random.floats(n, 0, 1, 6);
        float[] y = random.floats(n, 0, 1, 6);
        List<Value> sums = new ArrayList<>();
        for (Part p : split(n, partitions)) {
            Value xs = deviceArray(Arrays.copyOfRange(x, p.offset(), p.offset() + p.count()));
            Value ys = deviceArray(Arrays.copyOfRange(y, p.offset(), p.offset() + p.count()));
            Value acc = newArray("double", 1);
            acc.setArrayElement(0, 0.0);
            int grid = blocks(p.count());
            launch(square, grid, BLOCK, xs, p.count());
            launch(square, grid, BLOCK, ys, p.count());
            launch(diffSum, grid, BLOCK, xs, ys, acc, p.count());
            sums.add(acc);
        }
        if (!validating()) {
            return unchecked(n, partitions);
        }
        double result = 0;
        for (Value acc : sums) {
            result += acc.getArrayElement(0).asDouble();
        }
        double expected = 0;
        for (int i = 0; i < n; i++) {
            expected += (double) x[i] * x[i] - (double) y[i] * y[i];
        }
        return verdict(n, partitions, result == expected, "sum " + result + " (reference " + expected + ")");
    }
}
