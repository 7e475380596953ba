package org.polygpu.bench.study;

import java.util.List;

import org.graalvm.polyglot.Context;
import org.polygpu.bench.hand.HandBaselines;
import org.polygpu.bench.hand.HandRun;
import org.polygpu.bench.programs.BlackScholes;
import org.polygpu.bench.programs.ConjugateGradient;
import org.polygpu.bench.programs.MatrixVector;
import org.polygpu.bench.programs.MlEnsemble;
import org.polygpu.bench.programs.PolygpuProgram;
import org.polygpu.bench.programs.Vec;

/**
 * One of the paper's five benchmarks at the size the study runs it: {@code size} elements (VEC), prices (B&S), rows
 * (ML) or the matrix order (CG, MUL), in {@code partitions} partitions, CG with {@code iterations} iterations (1 for
 * the others). benchmarks/README.md says why these sizes.
 *
 * @param name       {@code vec}, {@code bs}, {@code ml}, {@code cg} or {@code mul}
 * @param size       at least {@code partitions}
 * @param partitions at least 1
 * @param iterations CG's iterations, at least 1; 1 for the other benchmarks
 */
record StudyBenchmark(String name, int size, int partitions, int iterations) {
    /** The benchmarks in the paper's order. */
    static final List<String> NAMES = List.of("vec", "bs", "ml", "cg", "mul");

    /** The paper's default partition count. */
    static final int PARTITIONS = 16;

    /** @throws IllegalArgumentException naming the parameter that is out of range */
    StudyBenchmark {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("benchmark must be one of " + NAMES + ", got " + name);
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        }
        if (size < partitions) {
            throw new IllegalArgumentException("size must be at least partitions (" + partitions + "), got " + size);
        }
        if (iterations < 1 || (!name.equals("cg") && iterations != 1)) {
            throw new IllegalArgumentException("iterations must be at least 1 for cg and 1 for the others, got "
                    + iterations + " for " + name);
        }
    }

    /** The full study's sizes: 16 to 64 MB of inputs (benchmarks/README.md, "The policy study", says why). */
    static List<StudyBenchmark> full() {
        return List.of(
                new StudyBenchmark("vec", 1 << 23, PARTITIONS, 1),
                new StudyBenchmark("bs", 1 << 23, PARTITIONS, 1),
                new StudyBenchmark("ml", 1 << 18, PARTITIONS, 1),
                new StudyBenchmark("cg", 1 << 11, PARTITIONS, 10),
                new StudyBenchmark("mul", 1 << 12, PARTITIONS, 1));
    }

    /** {@code --quick}: the same benchmarks with 8 times smaller inputs (CG and MUL: half the order). */
    static List<StudyBenchmark> quick() {
        return full().stream().map(b -> new StudyBenchmark(b.name(),
                b.name().equals("cg") || b.name().equals("mul") ? b.size() / 2 : b.size() / 8, b.partitions(),
                b.iterations())).toList();
    }

    /** This benchmark's polygpu program (Java, on a polyglot context), not validated. */
    PolygpuProgram program(Context context) {
        PolygpuProgram program = switch (name) {
            case "vec" -> new Vec(context);
            case "bs" -> new BlackScholes(context);
            case "ml" -> new MlEnsemble(context);
            case "cg" -> new ConjugateGradient(context, iterations);
            default -> new MatrixVector(context);
        };
        return program.withoutValidation();
    }

    /** Whether a hand-optimized baseline exists for this benchmark. */
    boolean hasHandBaseline() {
        return HandBaselines.names().contains(name);
    }

    /**
     * The hand-optimized baseline's run at this size on {@code gpus} GPUs of {@code topology} with the topology's
     * GPU model ({@link Study#deviceModel}), sampled.
     */
    HandRun handRun(int gpus, String topology) {
        return HandRun.of(name, size, partitions, gpus, topology).withIterations(iterations)
                .withDeviceModel(Study.deviceModel(topology)).sampled();
    }
}
