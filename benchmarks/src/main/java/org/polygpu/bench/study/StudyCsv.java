package org.polygpu.bench.study;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code study.csv}: the header {@value #HEADER}, then one line per {@link StudyRow} in the study's order. Times are
 * in µs with three decimals (the makespans exactly, as the virtual clock counts nanoseconds), an unknown one empty;
 * bytes are integers. The text depends only on the rows.
 */
final class StudyCsv {
    /** The columns, in order. */
    static final String HEADER = "benchmark,topology,gpus,policy,makespan_us,lower_bound_us,hand_us,bytes_h2d,"
            + "bytes_d2d,bytes_d2h";

    private StudyCsv() {
    }

    /** The CSV text of {@code rows}. */
    static String text(List<StudyRow> rows) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (StudyRow r : rows) {
            out.append(r.benchmark()).append(',').append(r.topology()).append(',').append(r.gpus()).append(',')
                    .append(r.policy()).append(',').append(micros(r.makespanNanos())).append(',')
                    .append(Double.isNaN(r.boundNanos()) ? "" : String.format(Locale.ROOT, "%.3f",
                            r.boundNanos() / 1e3)).append(',')
                    .append(r.handNanos() < 0 ? "" : micros(r.handNanos())).append(',')
                    .append(r.bytesH2d()).append(',').append(r.bytesD2d()).append(',').append(r.bytesD2h())
                    .append('\n');
        }
        return out.toString();
    }

    /** Writes {@link #text} to {@code file}, replacing it. */
    static void write(List<StudyRow> rows, Path file) {
        try {
            Files.writeString(file, text(rows), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * The rows of a {@code study.csv} written by {@link #write}, to draw its plots again.
     *
     * @throws IllegalArgumentException naming the file and line that is not the study's format
     */
    static List<StudyRow> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IllegalArgumentException(file + " does not start with the study's header " + HEADER);
        }
        List<StudyRow> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).split(",", -1);
            try {
                if (f.length != 10) {
                    throw new IllegalArgumentException("expected 10 fields, found " + f.length);
                }
                rows.add(new StudyRow(f[0], f[1], Integer.parseInt(f[2]), f[3], nanos(f[4]),
                        f[5].isEmpty() ? Double.NaN : Double.parseDouble(f[5]) * 1e3,
                        f[6].isEmpty() ? -1 : nanos(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]),
                        Long.parseLong(f[9])));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return rows;
    }

    /** {@code 12.345} (µs, as {@link #micros} writes it) as 12345 ns. */
    private static long nanos(String micros) {
        if (!micros.matches("[0-9]+\\.[0-9]{3}")) {
            throw new NumberFormatException("'" + micros + "' is not microseconds with three decimals");
        }
        return Long.parseLong(micros.replace(".", ""));
    }

    /** Nanoseconds as microseconds with three decimals, exactly. */
    static String micros(long nanos) {
        return String.format(Locale.ROOT, "%d.%03d", nanos / 1000, nanos % 1000);
    }
}
