package org.polygpu.bench.hand;

import static org.polygpu.bench.programs.MlEnsemble.CLASSES;
import static org.polygpu.bench.programs.MlEnsemble.FEATURES;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.StreamHandle;
import org.polygpu.bench.programs.MlEnsemble;
import org.polygpu.bench.programs.SeededRandom;
import org.polygpu.bench.programs.Verdict;

/**
 * ML written by hand on the backend SPI. The two models' weights and the ridge model's statistics, read by every
 * partition, are packed into one buffer (each kernel gets a pointer into it), so they cost one copy over the host
 * link, to GPU 0, and one copy from there to each other GPU over the GPU links, an event per GPU saying when they
 * have arrived (as MUL's vector). The row blocks are dealt round robin (partition q on GPU q mod G: equal,
 * independent partitions). Each partition has two streams on its GPU, since its two models' chains are independent:
 * the first copies the rows in, waits for the model and records one event that says both are there; the second waits
 * for that event and runs Ridge Regression (scores, softmax) while the first runs Naive Bayes (scores, softmax); an
 * event hands the second's result over, and the first combines them and, when validating, copies the predictions
 * back. The second stream costs four more host calls per partition (1.5 µs each on the emulator), which a run
 * dominated by the host's calls pays (20 000 rows, 16 partitions on 4 GPUs of v100x8: 336.7 µs against 293.8 µs on
 * one stream per partition); where the kernels count it wins (200 000 rows: 747.2 µs against 857.9 µs).
 */
public final class HandMlEnsemble {
    private static final int BLOCK = 256;
    private static final List<String> MODEL = List.of("nb_w", "prior", "mean", "deviation", "rr_w", "bias");

    private HandMlEnsemble() {
    }

    /** Arguments: see {@link HandMain#run}; default 20000 rows. */
    public static void main(String[] args) {
        HandMain.run("ml", args);
    }

    /** Runs ML on {@code gpus} emulated GPUs of {@code topology} and validates it as the polygpu program does. */
    public static Verdict run(int rows, int partitions, int gpus, String topology) {
        return HandBaselines.run(HandRun.of("ml", rows, partitions, gpus, topology)).verdict();
    }

    static Verdict run(HandRun run, HandSetup setup) {
        int n = run.size();
        // The polygpu program's inputs, drawn in the same order from the same seed.
        SeededRandom random = new SeededRandom(42);
        Map<String, float[]> model = new LinkedHashMap<>();
        model.put("nb_w", random.floats(CLASSES * FEATURES, -1, 0));
        model.put("prior", random.floats(CLASSES, -2, 0));
        model.put("mean", random.floats(FEATURES, 0.4, 0.6));
        model.put("deviation", random.floats(FEATURES, 0.2, 0.4));
        model.put("rr_w", random.floats(CLASSES * FEATURES, -1, 1));
        model.put("bias", random.floats(CLASSES, -0.5, 0.5));
        float[] x = random.floats(n * FEATURES, 0, 1);

        Backend b = setup.backend;
        float[] packed = new float[model.values().stream().mapToInt(a -> a.length).sum()];
        Map<String, Long> offset = new LinkedHashMap<>();
        int at = 0;
        for (String name : MODEL) {
            float[] values = model.get(name);
            System.arraycopy(values, 0, packed, at, values.length);
            offset.put(name, (long) at * Float.BYTES);
            at += values.length;
        }
        List<DeviceBuffer> weights = new ArrayList<>();
        List<EventHandle> ready = new ArrayList<>();
        HandMatrixVector.broadcast(setup, setup.host(packed), (long) packed.length * Float.BYTES, "model", weights,
                ready);

        int size = (n + run.partitions() - 1) / run.partitions();
        List<MemorySegment> predictions = new ArrayList<>();
        for (int first = 0; first < n; first += size) {
            int rows = Math.min(size, n - first);
            int device = (first / size) % setup.gpus();
            DeviceBuffer w = weights.get(device);
            StreamHandle nbStream = b.createStream(device);
            StreamHandle rrStream = b.createStream(device);
            long scoreBytes = (long) rows * CLASSES * Float.BYTES;
            DeviceBuffer xs = b.allocate(device, (long) rows * FEATURES * Float.BYTES);
            DeviceBuffer nb = b.allocate(device, scoreBytes);
            DeviceBuffer rr = b.allocate(device, scoreBytes);
            DeviceBuffer prediction = b.allocate(device, (long) rows * Integer.BYTES);
            setup.copyIn(setup.host(Arrays.copyOfRange(x, first * FEATURES, (first + rows) * FEATURES)), xs,
                    xs.bytes(), nbStream, "x");
            b.streamWaitEvent(nbStream, ready.get(device));
            b.streamWaitEvent(rrStream, record(b, device, nbStream));
            LaunchConfig scores = config((long) rows * CLASSES);
            LaunchConfig perRow = config(rows);
            setup.launch(device, "nb_scores", scores, nbStream, xs, at(w, offset, "nb_w"), at(w, offset, "prior"), nb,
                    rows, FEATURES, CLASSES);
            setup.launch(device, "softmax", perRow, nbStream, nb, rows, CLASSES);
            setup.launch(device, "rr_scores", scores, rrStream, xs, at(w, offset, "mean"),
                    at(w, offset, "deviation"), at(w, offset, "rr_w"), at(w, offset, "bias"), rr, rows, FEATURES,
                    CLASSES);
            setup.launch(device, "softmax", perRow, rrStream, rr, rows, CLASSES);
            b.streamWaitEvent(nbStream, record(b, device, rrStream));
            setup.launch(device, "argmax_sum", perRow, nbStream, nb, rr, prediction, rows, CLASSES);
            if (run.validate()) {
                MemorySegment out = setup.host(prediction.bytes());
                setup.copyOut(prediction, out, prediction.bytes(), nbStream, "prediction");
                predictions.add(out);
            }
        }
        if (!run.validate()) {
            return HandMain.unchecked(run, setup);
        }
        b.synchronizeAll();
        return judge(run, setup, model, x, predictions, size);
    }

    /** The polygpu program's check: every prediction whose two best classes are apart by the margin is right. */
    private static Verdict judge(HandRun run, HandSetup setup, Map<String, float[]> model, float[] x,
                                 List<MemorySegment> predictions, int size) {
        int judged = 0;
        int wrong = 0;
        for (int q = 0; q < predictions.size(); q++) {
            MemorySegment out = predictions.get(q);
            for (int i = 0; i < out.byteSize() / Integer.BYTES; i++) {
                double[] total = MlEnsemble.reference(model, x, q * size + i);
                int best = 0;
                for (int c = 1; c < CLASSES; c++) {
                    best = total[c] > total[best] ? c : best;
                }
                double second = Double.NEGATIVE_INFINITY;
                for (int c = 0; c < CLASSES; c++) {
                    second = c != best ? Math.max(second, total[c]) : second;
                }
                if (total[best] - second >= MlEnsemble.MARGIN) {
                    judged++;
                    wrong += out.getAtIndex(ValueLayout.JAVA_INT, i) != best ? 1 : 0;
                }
            }
        }
        return HandMain.verdict(run, setup, wrong == 0 && judged > 0, wrong + " wrong of " + judged
                + " predictions judged (" + (run.size() - judged) + " within the rounding margin)");
    }

    private static BufferOffset at(DeviceBuffer packed, Map<String, Long> offset, String name) {
        return new BufferOffset(packed, offset.get(name));
    }

    private static EventHandle record(Backend b, int device, StreamHandle stream) {
        EventHandle e = b.createEvent(device);
        b.recordEvent(e, stream);
        return e;
    }

    /** The polygpu program's grid: enough 256-thread blocks for {@code items}, at most 64. */
    private static LaunchConfig config(long items) {
        return LaunchConfig.of((int) Math.max(1, Math.min(64, (items + BLOCK - 1) / BLOCK)), BLOCK);
    }
}
