package org.polygpu.bench.study;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.polygpu.config.MemoryModel;

/**
 * {@code memory-models.csv}: the study's ML and CG runs under each memory model of the plan (header
 * {@value #HEADER}), side by side, one line per run in the study's order. Under {@code managed} the byte columns count
 * what prefetches and host migrations moved (a kernel's page faults are in its makespan, not in these columns); under
 * {@code explicit} what the copies moved. Times in µs with three decimals, as {@code study.csv}.
 */
final class MemoryModelCsv {
    /** The columns, in order. */
    static final String HEADER = "benchmark,topology,gpus,policy,memory_model,makespan_us,bytes_h2d,bytes_d2d,"
            + "bytes_d2h";

    /** One run: a configuration under a policy and a memory model. */
    record Row(StudyPlan.Configuration configuration, String policy, MemoryModel memoryModel, Measurement measured) {
    }

    private MemoryModelCsv() {
    }

    /** The CSV text of {@code rows}. */
    static String text(List<Row> rows) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (Row r : rows) {
            StudyPlan.Configuration c = r.configuration();
            Measurement m = r.measured();
            out.append(c.benchmark().name()).append(',').append(c.topology()).append(',').append(c.gpus()).append(',')
                    .append(r.policy()).append(',').append(r.memoryModel().optionValue()).append(',')
                    .append(StudyCsv.micros(m.makespanNanos())).append(',').append(m.bytesHostToDevice()).append(',')
                    .append(m.bytesDeviceToDevice()).append(',').append(m.bytesDeviceToHost()).append('\n');
        }
        return out.toString();
    }

    /** Writes {@link #text} to {@code file}, replacing it. */
    static void write(List<Row> rows, Path file) {
        try {
            Files.writeString(file, text(rows), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
