package org.polygpu.bench.study;

import java.util.ArrayList;
import java.util.List;
import org.polygpu.config.MemoryModel;

import org.polygpu.sched.spi.DeviceSelectionPolicies;

/**
 * The matrix a study runs: every benchmark × topology × GPU count, under every policy and, where the benchmark has
 * one, as the hand-optimized baseline.
 *
 * @param benchmarks the benchmarks and their sizes, in the order of the CSV
 * @param topologies emulated topology presets or clusters of them ({@link Study#deviceModel} gives each its GPU
 *                   model)
 * @param gpus       GPU counts, each at least 1 and at most every topology's GPU count, or only
 *                   {@link #ALL_GPUS}
 * @param policies   device-selection policies by registry name
 * @param hand       whether the hand-optimized baselines run too
 * @param memoryModels the memory models ML and CG run under, {@code explicit} first; every other run, and every row
 *                   of {@code study.csv}, is {@code explicit}, and the others are compared in {@code memory-models.csv}
 */
record StudyPlan(List<StudyBenchmark> benchmarks, List<String> topologies, List<Integer> gpus, List<String> policies,
                 boolean hand, List<MemoryModel> memoryModels) {
    /** The benchmarks that run under every memory model of the plan: GrCUDA's programs written for managed memory. */
    static final List<String> MEMORY_MODEL_BENCHMARKS = List.of("ml", "cg");

    /** The topologies of the full study. */
    static final List<String> TOPOLOGIES = List.of("v100x8", "a100x8", "h100x8");
    /** The GPU counts of the full study. */
    static final List<Integer> GPUS = List.of(1, 2, 4, 8);

    /** One configuration: a benchmark on some GPUs of a topology. */
    record Configuration(StudyBenchmark benchmark, String topology, int gpus) {
        @Override
        public String toString() {
            return benchmark.name() + " " + topology + " " + gpus + (gpus == 1 ? " GPU" : " GPUs");
        }
    }

    /** @throws IllegalArgumentException naming the parameter that is empty or out of range */
    StudyPlan {
        benchmarks = List.copyOf(benchmarks);
        topologies = List.copyOf(topologies);
        gpus = List.copyOf(gpus);
        policies = List.copyOf(policies);
        memoryModels = List.copyOf(memoryModels);
        if (memoryModels.isEmpty() || memoryModels.get(0) != MemoryModel.EXPLICIT
                || memoryModels.size() != memoryModels.stream().distinct().count()) {
            throw new IllegalArgumentException("--memory-models must start with explicit, the study's reference, and "
                    + "name each model once, got " + memoryModels.stream().map(MemoryModel::optionValue).toList());
        }
        if (benchmarks.isEmpty() || topologies.isEmpty() || gpus.isEmpty() || policies.isEmpty()) {
            throw new IllegalArgumentException(
                    "the study needs at least one benchmark, topology, GPU count and policy");
        }
        topologies.forEach(Study::deviceModel);
        int most = topologies.stream().mapToInt(Study::gpuCount).min().orElseThrow();
        for (int g : gpus) {
            if ((g < 1 || g > most) && !gpus.equals(List.of(ALL_GPUS))) {
                throw new IllegalArgumentException("GPU counts must be in 1.." + most + " (the GPUs of every "
                        + "topology of the study), got " + g);
            }
        }
        List<String> known = DeviceSelectionPolicies.names();
        for (String p : policies) {
            if (!known.contains(p)) {
                throw new IllegalArgumentException("unknown policy '" + p + "'; registered policies: " + known);
            }
        }
    }

    /** The GPU count that stands for all the GPUs of each topology ({@code --nodes}). */
    static final int ALL_GPUS = 0;

    /** The full study: five benchmarks, three topologies, 1 to 8 GPUs, every registered policy and the baselines. */
    static StudyPlan full() {
        return new StudyPlan(StudyBenchmark.full(), TOPOLOGIES, GPUS, DeviceSelectionPolicies.names(), true,
                List.of(MemoryModel.EXPLICIT));
    }

    /** {@code --quick}: the full study's matrix on v100x8 only, at the quick sizes. */
    static StudyPlan quick() {
        return new StudyPlan(StudyBenchmark.quick(), List.of("v100x8"), GPUS, DeviceSelectionPolicies.names(), true,
                List.of(MemoryModel.EXPLICIT));
    }

    /** Every configuration, in the CSV's order: by benchmark, then topology, then GPU count. */
    List<Configuration> configurations() {
        List<Configuration> out = new ArrayList<>();
        for (StudyBenchmark b : benchmarks) {
            for (String t : topologies) {
                for (int g : gpus) {
                    out.add(new Configuration(b, t, g == ALL_GPUS ? Study.gpuCount(t) : g));
                }
            }
        }
        return out;
    }

    /** The memory models {@code benchmark} runs under: all of the plan's for ML and CG, else {@code explicit}. */
    List<MemoryModel> memoryModels(StudyBenchmark benchmark) {
        return MEMORY_MODEL_BENCHMARKS.contains(benchmark.name()) ? memoryModels : List.of(MemoryModel.EXPLICIT);
    }

    /** How many runs the plan makes. */
    int runCount() {
        int perConfiguration = policies.size();
        int withHand = 0;
        for (StudyBenchmark b : benchmarks) {
            withHand += (hand && b.hasHandBaseline() ? 1 : 0) + (memoryModels(b).size() - 1) * policies.size();
        }
        return (benchmarks.size() * perConfiguration + withHand) * topologies.size() * gpus.size();
    }
}
