package org.polygpu.bench.programs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;

/**
 * ML: an ensemble of a Naive Bayes and a Ridge Regression classifier over the rows of a matrix (32 features, 5
 * classes); each partition runs nb_scores then softmax, rr_scores then softmax, and argmax_sum of the two.
 */
public final class MlEnsemble extends PolygpuProgram {
    /** Features per row. */
    public static final int FEATURES = 32;
    /** Classes of both models. */
    public static final int CLASSES = 5;
    /**
     * Each score is a float sum of 32 terms of magnitude below 3, within 32 * 2^-24 * 96 < 2e-4 of its exact value;
     * softmax keeps that error (relative to the probability) and adds a few ulp, so each summed probability is
     * within 1e-3. Rows whose two best reference sums are closer than twice that are not judged: float may order
     * them either way.
     */
    public static final double MARGIN = 2e-3;

    public MlEnsemble(Context context) {
        super(context);
    }

    public static void main(String[] args) {
        ProgramLauncher.main(MlEnsemble::new, args);
    }

    @Override
    public String name() {
        return "ml";
    }

    @Override
    public int defaultSize() {
        return 20_000;
    }

    @Override
    public Verdict run(int n, int partitions) {
        Value nbScores = kernel("ml", "nb_scores(x: in pointer float, w: in pointer float, prior: in pointer float, "
                + "z: out pointer float, rows: sint32, features: sint32, classes: sint32)");
        Value rrScores = kernel("ml", "rr_scores(x: in pointer float, mean: in pointer float, "
                + "deviation: in pointer float, w: in pointer float, bias: in pointer float, z: out pointer float, "
                + "rows: sint32, features: sint32, classes: sint32)");
        Value softmax = kernel("ml", "softmax(z: inout pointer float, rows: sint32, classes: sint32)");
        Value argmaxSum = kernel("ml", "argmax_sum(a: in pointer float, b: in pointer float, "
                + "prediction: out pointer sint32, rows: sint32, classes: sint32)");
        SeededRandom random = new SeededRandom(42);
        Map<String, float[]> model = new LinkedHashMap<>();
        model.put("nb_w", random.floats(CLASSES * FEATURES, -1, 0));
        model.put("prior", random.floats(CLASSES, -2, 0));
        model.put("mean", random.floats(FEATURES, 0.4, 0.6));
        model.put("deviation", random.floats(FEATURES, 0.2, 0.4));
        model.put("rr_w", random.floats(CLASSES * FEATURES, -1, 1));
        model.put("bias", random.floats(CLASSES, -0.5, 0.5));
        Map<String, Value> onDevice = new LinkedHashMap<>();
        model.forEach((name, values) -> onDevice.put(name, deviceArray(values)));
        float[] x = random.floats(n * FEATURES, 0, 1);
        List<Part> parts = split(n, partitions);
        List<Value> predictions = new ArrayList<>();
        for (Part p : parts) {
            int rows = p.count();
            Value xs = deviceArray(Arrays.copyOfRange(x, p.offset() * FEATURES, (p.offset() + rows) * FEATURES));
            Value nb = newArray("float", (long) rows * CLASSES);
            Value rr = newArray("float", (long) rows * CLASSES);
            Value prediction = newArray("int", rows);
            int grid = blocks((long) rows * CLASSES);
            launch(nbScores, grid, BLOCK, xs, onDevice.get("nb_w"), onDevice.get("prior"), nb, rows, FEATURES,
                    CLASSES);
            launch(softmax, blocks(rows), BLOCK, nb, rows, CLASSES);
            launch(rrScores, grid, BLOCK, xs, onDevice.get("mean"), onDevice.get("deviation"), onDevice.get("rr_w"),
                    onDevice.get("bias"), rr, rows, FEATURES, CLASSES);
            launch(softmax, blocks(rows), BLOCK, rr, rows, CLASSES);
            launch(argmaxSum, blocks(rows), BLOCK, nb, rr, prediction, rows, CLASSES);
            predictions.add(prediction);
        }
        if (!validating()) {
            return unchecked(n, partitions);
        }
        int judged = 0;
        int wrong = 0;
        for (int q = 0; q < parts.size(); q++) {
            int[] predicted = readInts(predictions.get(q));
            for (int i = 0; i < predicted.length; i++) {
                double[] total = reference(model, x, parts.get(q).offset() + i);
                int best = 0;
                for (int c = 1; c < CLASSES; c++) {
                    best = total[c] > total[best] ? c : best;
                }
                double second = Double.NEGATIVE_INFINITY;
                for (int c = 0; c < CLASSES; c++) {
                    second = c != best ? Math.max(second, total[c]) : second;
                }
                if (total[best] - second >= MARGIN) {
                    judged++;
                    wrong += predicted[i] != best ? 1 : 0;
                }
            }
        }
        return verdict(n, partitions, wrong == 0 && judged > 0, wrong + " wrong of " + judged
                + " predictions judged (" + (n - judged) + " within the rounding margin)");
    }

    /** The ensemble's summed class probabilities for one row, in double. */
    public static double[] reference(Map<String, float[]> m, float[] x, int row) {
        double[] nb = new double[CLASSES];
        double[] rr = new double[CLASSES];
        for (int c = 0; c < CLASSES; c++) {
            nb[c] = m.get("prior")[c];
            rr[c] = m.get("bias")[c];
            for (int k = 0; k < FEATURES; k++) {
                double v = x[row * FEATURES + k];
                nb[c] += v * m.get("nb_w")[c * FEATURES + k];
                rr[c] += (v - m.get("mean")[k]) / m.get("deviation")[k] * m.get("rr_w")[c * FEATURES + k];
            }
        }
        softmax(nb);
        softmax(rr);
        for (int c = 0; c < CLASSES; c++) {
            nb[c] += rr[c];
        }
        return nb;
    }

    private static void softmax(double[] z) {
        double top = Arrays.stream(z).max().orElseThrow();
        double total = 0;
        for (int c = 0; c < z.length; c++) {
            z[c] = Math.exp(z[c] - top);
            total += z[c];
        }
        for (int c = 0; c < z.length; c++) {
            z[c] /= total;
        }
    }
}
