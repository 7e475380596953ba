package org.polygpu.bench.study;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.polygpu.bench.hand.HandBaselines;
import org.polygpu.bench.hand.HandResult;
import org.polygpu.config.MemoryModel;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.topology.ClusterTopology;

/**
 * The policy study ({@code scripts/study.sh}): runs a {@link StudyPlan} on the emulator in sampled execution and
 * writes {@code study.csv} ({@link StudyCsv}) and, unless told not to, the three plots ({@link StudyCharts}) to the
 * output directory. Every figure comes from the virtual clock, so two runs of the same plan write the same CSV.
 *
 * <p>Arguments: {@code [--quick] [--out DIR] [--benchmarks vec,bs,...] [--topologies v100x8,4xh100x8,...]
 * [--gpus 1,2,... | --nodes 1,2,...] [--partitions N] [--policies round-robin,...] [--sizes vec=N,...]
 * [--memory-models explicit,managed] [--device-memory BYTES] [--no-hand] [--no-plots] [--replot]}; the lists narrow
 * the full (or quick) plan, {@code --nodes} runs clusters of the node presets on all their GPUs ({@link StudyOptions}),
 * {@code --sizes} changes sizes, {@code --memory-models} runs
 * ML and CG under more memory models than {@code explicit} too and compares them in {@code memory-models.csv}
 * ({@link MemoryModelCsv}), {@code --replot} only draws the plots of {@code DIR/study.csv} again. The progress goes
 * to stderr.
 */
public final class Study {
    /**
     * The GPUs of a topology the study runs on: 8 for a node preset, all of a cluster's (8 nodes run on 64; the
     * largest cluster, 128 nodes, on {@link LocationSet#MAX_DEVICES}).
     */
    static int gpuCount(String topology) {
        return ClusterTopology.ofName(topology).map(ClusterTopology::gpuCount).orElse(ClusterTopology.GPUS_PER_NODE);
    }

    /** The policy the runtime uses when none is given, the reference of the ablation. */
    static final String DEFAULT_POLICY = RuntimeConfig.defaults().deviceSelectionPolicy();

    private Study() {
    }

    public static void main(String[] args) {
        try {
            Path csv = execute(args, System.err);
            System.out.println("wrote " + csv);
        } catch (IllegalArgumentException e) {
            System.err.println("study: " + e.getMessage());
            System.err.println(StudyOptions.USAGE);
            System.exit(2);
        }
        System.exit(0);
    }

    /**
     * Runs the study the arguments describe (see the class comment), showing the progress on {@code progress};
     * returns the path of {@code study.csv}. The plots are written beside it unless {@code --no-plots} is given.
     *
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    public static Path execute(String[] args, PrintStream progress) {
        StudyOptions options = StudyOptions.parse(args);
        if (options.replot()) {
            StudyCharts.writeAll(StudyCsv.read(options.out().resolve("study.csv")), options.out());
            return options.out().resolve("study.csv");
        }
        List<StudyRow> rows = run(options.plan(), options.out(), progress, options.deviceMemory());
        if (options.plots()) {
            StudyCharts.writeAll(rows, options.out());
        }
        return options.out().resolve("study.csv");
    }

    /**
     * Runs every configuration of {@code plan} and writes {@code out/study.csv}; shows the progress on
     * {@code progress}. Every emulated GPU has {@code deviceMemory} ({@code EmulatedDeviceMemory}), or its model's
     * memory when {@code null}. Returns the rows.
     */
    static List<StudyRow> run(StudyPlan plan, Path out, PrintStream progress, String deviceMemory) {
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the output directory " + out, e);
        }
        List<StudyRow> rows = new ArrayList<>();
        List<MemoryModelCsv.Row> models = new ArrayList<>();
        ProgressBar bar = new ProgressBar(progress);
        int total = plan.runCount();
        int done = 0;
        try (PolygpuRunner runner = new PolygpuRunner(deviceMemory)) {
            for (StudyPlan.Configuration c : plan.configurations()) {
                List<Measurement> measured = new ArrayList<>();
                DataflowBound reference = null;
                for (String policy : plan.policies()) {
                    bar.update(done, total, c + " " + policy);
                    Measurement m;
                    m = run(runner, c, policy, MemoryModel.EXPLICIT);
                    measured.add(m);
                    reference = reference == null || policy.equals(DEFAULT_POLICY) ? m.bound() : reference;
                    done++;
                    List<MemoryModel> compared = plan.memoryModels(c.benchmark());
                    for (MemoryModel model : compared.size() > 1 ? compared : List.<MemoryModel>of()) {
                        if (model == MemoryModel.EXPLICIT) {
                            models.add(new MemoryModelCsv.Row(c, policy, model, m));
                            continue;
                        }
                        bar.update(done, total, c + " " + policy + " " + model.optionValue());
                        models.add(new MemoryModelCsv.Row(c, policy, model, run(runner, c, policy, model)));
                        done++;
                    }
                }
                Measurement hand = null;
                if (plan.hand() && c.benchmark().hasHandBaseline()) {
                    bar.update(done, total, c + " " + StudyRow.HAND);
                    hand = hand(c);
                    done++;
                }
                long handNanos = hand == null ? -1 : hand.makespanNanos();
                for (int i = 0; i < measured.size(); i++) {
                    rows.add(row(c, plan.policies().get(i), measured.get(i), measured.get(i).bound(), handNanos));
                }
                if (hand != null) {
                    rows.add(row(c, StudyRow.HAND, hand, reference, handNanos));
                }
                StudyCsv.write(rows, out.resolve("study.csv"));
                if (!models.isEmpty()) {
                    MemoryModelCsv.write(models, out.resolve("memory-models.csv"));
                }
            }
        }
        bar.update(done, total, "done");
        return rows;
    }

    private static Measurement run(PolygpuRunner runner, StudyPlan.Configuration c, String policy,
                                   MemoryModel model) {
        try {
            return runner.run(c.benchmark(), c.topology(), c.gpus(), policy, model);
        } catch (RuntimeException e) {
            String what = c + " " + policy + (model == MemoryModel.EXPLICIT ? "" : " " + model.optionValue());
            throw new IllegalStateException("the run " + what + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * The GPU model of a topology preset: {@code v100x8} has V100s, {@code a100x8} A100s, {@code h100x8} H100s, and a
     * cluster of them ({@code 4xh100x8}, {@link ClusterTopology}) its nodes' model.
     */
    static String deviceModel(String topology) {
        String node = ClusterTopology.ofName(topology).map(ClusterTopology::nodePreset).orElse(topology);
        String model = node.length() >= 4 ? node.substring(0, 4).toUpperCase(Locale.ROOT) : "";
        if (!List.of("V100", "A100", "H100").contains(model)) {
            throw new IllegalArgumentException("topology must be a preset whose name starts with its GPU model "
                    + "(v100x8, a100x8, h100x8) or a cluster of them (4xh100x8), got " + topology);
        }
        return model;
    }

    private static Measurement hand(StudyPlan.Configuration c) {
        HandResult r = HandBaselines.run(c.benchmark().handRun(c.gpus(), c.topology()));
        if (!r.verdict().ok()) {
            throw new IllegalStateException("the hand-optimized baseline failed: " + r.verdict().line());
        }
        return new Measurement(Math.round(r.makespanMicros() * 1e3), r.bytesHostToDevice(), r.bytesDeviceToDevice(),
                r.bytesDeviceToHost(), null);
    }

    private static StudyRow row(StudyPlan.Configuration c, String policy, Measurement m, DataflowBound bound,
                                long handNanos) {
        return new StudyRow(c.benchmark().name(), c.topology(), c.gpus(), policy, m.makespanNanos(),
                bound == null ? Double.NaN : bound.nanos(), handNanos, m.bytesHostToDevice(),
                m.bytesDeviceToDevice(), m.bytesDeviceToHost());
    }
}
