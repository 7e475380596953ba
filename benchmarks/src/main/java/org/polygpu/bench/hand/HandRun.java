package org.polygpu.bench.hand;

import java.util.List;

import org.polygpu.config.EmulatedExecution;

/**
 * One run of a hand-optimized baseline: which benchmark, its size, how it is split and on which emulated machine.
 * Build it with {@link #of} and the {@code with...} methods.
 *
 * @param benchmark  {@code vec}, {@code bs}, {@code ml}, {@code cg} or {@code mul} (see {@link HandBaselines})
 * @param size       elements (VEC), prices (B&S), rows (ML), or the matrix order n (CG, MUL); at least
 *                   {@code partitions}
 * @param partitions how many partitions the data is split in, at least 1
 * @param gpus       emulated GPUs to use, at least 1 and at most the topology's
 * @param topology   the emulated topology, a preset name such as {@code v100x8} or a CSV path
 * @param iterations how many times the benchmark's chain repeats: CG's iterations (10 by default, as the polygpu
 *                   program); the other benchmarks make one pass and take only 1
 * @param execution  {@link EmulatedExecution#FULL} (every thread block interpreted, results computed) or
 *                   {@link EmulatedExecution#SAMPLED} (a sample of blocks, results not computed)
 * @param validate   whether the results are copied back to the host and checked against the CPU reference;
 *                   never with sampled execution. Without it nothing at all is copied back, as the polygpu
 *                   programs run {@code withoutValidation()}
 * @param deviceModel the emulated GPU model ({@code EmulatedDeviceModel}: {@code V100}, {@code A100} or
 *                    {@code H100}), {@link #DEFAULT_DEVICE_MODEL} unless set: give the polygpu run the same
 */
public record HandRun(String benchmark, int size, int partitions, int gpus, String topology, int iterations,
                      EmulatedExecution execution, boolean validate, String deviceModel) {
    /** CG's iterations when none are given, as the polygpu program. */
    public static final int CG_ITERATIONS = 10;
    /** The emulator's own default model, the one a polygpu run gets without {@code EmulatedDeviceModel}. */
    public static final String DEFAULT_DEVICE_MODEL = "V100";

    /** @throws IllegalArgumentException naming the parameter that is out of range */
    public HandRun {
        if (!HandBaselines.names().contains(benchmark)) {
            throw new IllegalArgumentException("benchmark must be one of " + HandBaselines.names() + ", got "
                    + benchmark);
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        }
        if (size < partitions) {
            throw new IllegalArgumentException("size must be at least partitions (" + partitions + "), got " + size);
        }
        if (gpus < 1) {
            throw new IllegalArgumentException("gpus must be at least 1, got " + gpus);
        }
        if (topology == null || topology.isBlank()) {
            throw new IllegalArgumentException("topology must name a preset or a CSV file");
        }
        if (iterations < 1 || (!benchmark.equals("cg") && iterations != 1)) {
            throw new IllegalArgumentException("iterations must be at least 1 for cg and 1 for " + List.of("vec",
                    "bs", "ml", "mul") + ", got " + iterations + " for " + benchmark);
        }
        if (execution == null) {
            throw new IllegalArgumentException("execution must be full or sampled");
        }
        if (validate && execution == EmulatedExecution.SAMPLED) {
            throw new IllegalArgumentException("validate is impossible with sampled execution, whose results are "
                    + "not computed; use withoutValidation()");
        }
        if (deviceModel == null || deviceModel.isBlank()) {
            throw new IllegalArgumentException("deviceModel must name an emulated GPU model such as V100");
        }
    }

    /** A run on the default device model. */
    public HandRun(String benchmark, int size, int partitions, int gpus, String topology, int iterations,
                   EmulatedExecution execution, boolean validate) {
        this(benchmark, size, partitions, gpus, topology, iterations, execution, validate, DEFAULT_DEVICE_MODEL);
    }

    /** Full execution, validated, on the default device model, with CG's default iterations (1 for the others). */
    public static HandRun of(String benchmark, int size, int partitions, int gpus, String topology) {
        return new HandRun(benchmark, size, partitions, gpus, topology, "cg".equals(benchmark) ? CG_ITERATIONS : 1,
                EmulatedExecution.FULL, true);
    }

    /** The same run with CG's iteration count set. */
    public HandRun withIterations(int value) {
        return new HandRun(benchmark, size, partitions, gpus, topology, value, execution, validate, deviceModel);
    }

    /** The same run, nothing read back or checked. */
    public HandRun withoutValidation() {
        return new HandRun(benchmark, size, partitions, gpus, topology, iterations, execution, false, deviceModel);
    }

    /** The same run in sampled execution, so without validation. */
    public HandRun sampled() {
        return new HandRun(benchmark, size, partitions, gpus, topology, iterations, EmulatedExecution.SAMPLED,
                false, deviceModel);
    }

    /** The same run on another emulated GPU model ({@code V100}, {@code A100}, {@code H100}). */
    public HandRun withDeviceModel(String value) {
        return new HandRun(benchmark, size, partitions, gpus, topology, iterations, execution, validate, value);
    }
}
