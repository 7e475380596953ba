package org.polygpu.calibration;

import java.util.Objects;

/**
 * One result of the calibration suite: a microbenchmark, its variant, how much work one run does and how long one
 * run takes (the median over the repetitions). What {@code work} counts is the {@code unit}: bytes, warp
 * instructions, atomics, dependent loads, launches or kernels ({@link CalibrationSuite} lists every benchmark).
 *
 * @param benchmark what is measured, such as {@code load} or {@code copy-h2d-pinned}
 * @param parameter the variant, such as {@code stride-4}, {@code addresses-32} or {@code 65536} (bytes)
 * @param unit      what {@code work} counts
 * @param work      the work of one run, positive
 * @param nanos     nanoseconds one run takes, positive
 */
public record Measurement(String benchmark, String parameter, String unit, double work, double nanos) {
    public Measurement {
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(parameter, "parameter");
        Objects.requireNonNull(unit, "unit");
        for (String field : new String[] {benchmark, parameter, unit}) {
            if (field.isBlank() || field.contains(",") || field.contains("\n")) {
                throw new IllegalArgumentException("a measurement's names must be non-empty and hold no comma or "
                        + "line break, got '" + field + "'");
            }
        }
        if (!(work > 0) || Double.isInfinite(work)) {
            throw new IllegalArgumentException(benchmark + " " + parameter + ": work must be positive, got " + work);
        }
        if (!(nanos > 0) || Double.isInfinite(nanos)) {
            throw new IllegalArgumentException(benchmark + " " + parameter + ": the time must be positive, got "
                    + nanos + " ns");
        }
    }

    /** Work per nanosecond, such as bytes per nanosecond (GB/s). */
    public double rate() {
        return work / nanos;
    }
}
