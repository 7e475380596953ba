package org.polygpu.bench.study;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.polygpu.config.MemoryModel;
import org.polygpu.config.OptionValue;
import org.polygpu.topology.ClusterTopology;

/**
 * The study's command line: the plan (full or {@code --quick}, narrowed by the list options, sizes changed by
 * {@code --sizes}, partitions by {@code --partitions}), the output directory and whether to draw the plots.
 * {@code --nodes 1,2,4} turns each node preset of {@code --topologies} into clusters of that many nodes
 * ({@code 1xh100x8}, {@code 2xh100x8}, ...) and runs each on all its GPUs.
 *
 * @param plan  what to run
 * @param out   where {@code study.csv} and the plots go
 * @param plots  whether to draw the plots
 * @param replot whether only to draw the plots of an existing {@code study.csv} in {@code out}
 * @param deviceMemory {@code --device-memory}: every emulated GPU's memory ({@code EmulatedDeviceMemory}, e.g.
 *               {@code 64MiB}) instead of the model's, for working sets larger than the GPUs, run in full execution
 *               (evictions write back to the host what a sampled run did not compute); {@code null}: the model's
 */
record StudyOptions(StudyPlan plan, Path out, boolean plots, boolean replot, String deviceMemory) {
    static final String USAGE = "usage: study [--quick] [--out DIR] [--benchmarks vec,bs,ml,cg,mul] "
            + "[--topologies v100x8,a100x8,h100x8,4xh100x8] [--gpus 1,2,4,8 | --nodes 1,2,4,8] [--partitions N] "
            + "[--policies NAME,...] [--sizes vec=N,...] [--memory-models explicit,managed] [--no-hand] [--no-plots] "
            + "[--device-memory BYTES] [--replot]";

    /** @throws IllegalArgumentException naming the argument that is wrong */
    static StudyOptions parse(String[] args) {
        boolean quick = false;
        boolean hand = true;
        boolean plots = true;
        boolean replot = false;
        Path out = Path.of("target", "study");
        Map<String, String> lists = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> quick = true;
                case "--no-hand" -> hand = false;
                case "--no-plots" -> plots = false;
                case "--replot" -> replot = true;
                case "--out", "--benchmarks", "--topologies", "--gpus", "--policies", "--sizes", "--memory-models",
                     "--nodes", "--partitions", "--device-memory" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    String value = args[++i];
                    if (a.equals("--out")) {
                        out = Path.of(value);
                    } else {
                        lists.put(a, value);
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
        StudyPlan base = quick ? StudyPlan.quick() : StudyPlan.full();
        List<StudyBenchmark> benchmarks = base.benchmarks();
        if (lists.containsKey("--benchmarks")) {
            List<String> names = split(lists.get("--benchmarks"));
            for (String n : names) {
                if (!StudyBenchmark.NAMES.contains(n)) {
                    throw new IllegalArgumentException("--benchmarks: unknown benchmark '" + n + "'; valid: "
                            + StudyBenchmark.NAMES);
                }
            }
            benchmarks = benchmarks.stream().filter(b -> names.contains(b.name())).toList();
        }
        if (lists.containsKey("--sizes")) {
            benchmarks = resized(benchmarks, lists.get("--sizes"));
        }
        if (lists.containsKey("--partitions")) {
            int partitions = numbers("--partitions", lists.get("--partitions")).getFirst();
            benchmarks = benchmarks.stream().map(b -> new StudyBenchmark(b.name(), b.size(), partitions,
                    b.iterations())).toList();
        }
        List<String> topologies = lists.containsKey("--topologies") ? split(lists.get("--topologies"))
                : base.topologies();
        List<Integer> gpus = base.gpus();
        if (lists.containsKey("--gpus")) {
            gpus = numbers("--gpus", lists.get("--gpus"));
        }
        if (lists.containsKey("--nodes")) {
            if (lists.containsKey("--gpus")) {
                throw new IllegalArgumentException("--nodes runs every GPU of each cluster; do not give --gpus too");
            }
            topologies = clusters(topologies, numbers("--nodes", lists.get("--nodes")));
            gpus = List.of(StudyPlan.ALL_GPUS);
        }
        List<String> policies = lists.containsKey("--policies") ? split(lists.get("--policies")) : base.policies();
        List<MemoryModel> models = base.memoryModels();
        if (lists.containsKey("--memory-models")) {
            models = split(lists.get("--memory-models")).stream()
                    .map(m -> OptionValue.parse(MemoryModel.class, "--memory-models", m)).toList();
        }
        String memory = lists.get("--device-memory");
        if (memory != null && hand) {
            throw new IllegalArgumentException("--device-memory needs --no-hand: the hand-optimized baselines keep "
                    + "every partition resident and cannot run beyond the GPUs' memory");
        }
        return new StudyOptions(new StudyPlan(benchmarks, topologies, gpus, policies, hand, models), out, plots,
                replot, memory);
    }

    private static List<StudyBenchmark> resized(List<StudyBenchmark> benchmarks, String sizes) {
        Map<String, Integer> bySize = new HashMap<>();
        for (String entry : split(sizes)) {
            int eq = entry.indexOf('=');
            String name = eq < 0 ? "" : entry.substring(0, eq);
            if (!StudyBenchmark.NAMES.contains(name)) {
                throw new IllegalArgumentException("--sizes: expected NAME=N with NAME one of " + StudyBenchmark.NAMES
                        + ", got '" + entry + "'");
            }
            try {
                bySize.put(name, Integer.parseInt(entry.substring(eq + 1)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--sizes: '" + entry + "' has no whole size");
            }
        }
        return benchmarks.stream().map(b -> bySize.containsKey(b.name())
                ? new StudyBenchmark(b.name(), bySize.get(b.name()), b.partitions(), b.iterations()) : b).toList();
    }

    /** Each node count of each node preset, as clusters ({@code 2xh100x8}): the topologies of {@code --nodes}. */
    private static List<String> clusters(List<String> nodePresets, List<Integer> nodes) {
        List<String> clusters = new ArrayList<>();
        for (String preset : nodePresets) {
            if (!ClusterTopology.NODE_PRESETS.contains(preset)) {
                throw new IllegalArgumentException("--nodes: the topologies must be node presets "
                        + ClusterTopology.NODE_PRESETS + ", got '" + preset + "'");
            }
            for (int n : nodes) {
                clusters.add(ClusterTopology.parse(n + "x" + preset).name());
            }
        }
        return clusters;
    }

    private static List<Integer> numbers(String option, String list) {
        List<Integer> numbers = new ArrayList<>();
        for (String n : split(list)) {
            try {
                numbers.add(Integer.parseInt(n));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + ": '" + n + "' is not a number");
            }
        }
        if (numbers.isEmpty()) {
            throw new IllegalArgumentException(option + " needs at least one number");
        }
        return numbers;
    }

    private static List<String> split(String list) {
        return Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
