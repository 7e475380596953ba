package org.polygpu.bench.fidelity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The measurements of one calibration directory ({@code calibration/h100/}): {@code kernels.csv},
 * {@code copies.csv} and {@code concurrency.csv}, each row as a record (columns are found by name in the header),
 * and from {@code launch.csv}, when it has it, the host's interval between back-to-back launches of an empty kernel
 * (host wall clock over many launches): the fastest the measurement's batches of launches can go, since its host
 * issues them no faster (a launch with arguments costs the host more).
 *
 * @param kernels      the study kernels, alone
 * @param copies       copies of several sizes, per direction and host memory
 * @param concurrency  one kernel on several streams at once
 * @param batchFloorUs microseconds per launch of the host's back-to-back empty launches, 0 when {@code launch.csv}
 *                     does not give it
 */
public record Measurements(List<KernelRow> kernels, List<CopyRow> copies, List<ConcurrencyRow> concurrency,
                           double batchFloorUs) {
    /**
     * The row of {@code launch.csv} that gives the host's interval: its quoted description names back-to-back
     * launches of an empty kernel timed by the host's wall clock; its next cell is microseconds per launch.
     */
    private static final Pattern BATCH_FLOOR = Pattern.compile(
            "(?m)^\"[^\"\n]*back-to-back launches of an empty kernel, host wall[^\"\n]*\",([0-9]+(?:\\.[0-9]+)?)");

    /**
     * One launch configuration of a study kernel.
     *
     * @param kernel  {@code file.function}, e.g. {@code vec.square}
     * @param size    the problem, e.g. {@code n=65536} or {@code n=2048 rows=128}
     * @param batchUs microseconds per launch in a batch of back-to-back launches
     */
    public record KernelRow(String kernel, String size, int grid, int block, double batchUs) {
    }

    /**
     * One copy size.
     *
     * @param direction  {@code h2d}, {@code d2h} or {@code d2d}
     * @param hostMemory {@code pinned}, {@code pageable} or {@code device}
     * @param medianUs   median microseconds of the copy and a synchronize
     */
    public record CopyRow(String direction, String hostMemory, long bytes, double medianUs) {
    }

    /**
     * One kernel launched on {@code streams} streams at once.
     *
     * @param wallUs median microseconds from the first launch to the last stream's completion
     */
    public record ConcurrencyRow(String kernel, long n, int grid, int block, int streams, double wallUs) {
    }

    /** The measurements in {@code dir}. */
    public static Measurements read(Path dir) {
        List<KernelRow> kernels = new ArrayList<>();
        for (Row r : rows(dir.resolve("kernels.csv"))) {
            kernels.add(new KernelRow(r.get("kernel"), r.get("size"), r.integer("grid"), r.integer("block"),
                    r.number("batch_us_per_launch")));
        }
        List<CopyRow> copies = new ArrayList<>();
        for (Row r : rows(dir.resolve("copies.csv"))) {
            copies.add(new CopyRow(r.get("direction"), r.get("host_memory"), (long) r.number("bytes"),
                    r.number("median_us")));
        }
        List<ConcurrencyRow> concurrency = new ArrayList<>();
        for (Row r : rows(dir.resolve("concurrency.csv"))) {
            concurrency.add(new ConcurrencyRow(r.get("kernel"), (long) r.number("n"), r.integer("grid"),
                    r.integer("block"), r.integer("streams"), r.number("wall_median_us")));
        }
        return new Measurements(List.copyOf(kernels), List.copyOf(copies), List.copyOf(concurrency),
                batchFloorUs(dir.resolve("launch.csv")));
    }

    /** The host's microseconds per back-to-back empty launch that {@code file} gives, 0 without the file or it. */
    static double batchFloorUs(Path file) {
        if (!Files.isRegularFile(file)) {
            return 0;
        }
        try {
            Matcher m = BATCH_FLOOR.matcher(Files.readString(file, StandardCharsets.UTF_8));
            return m.find() ? Double.parseDouble(m.group(1)) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read measurements " + file, e);
        }
    }

    private record Row(List<String> header, String[] cells, String where) {
        String get(String column) {
            int i = header.indexOf(column);
            if (i < 0 || i >= cells.length) {
                throw new IllegalArgumentException(where + ": no column '" + column + "'");
            }
            return cells[i];
        }

        double number(String column) {
            try {
                return Double.parseDouble(get(column));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + ": '" + column + "' is not a number: " + get(column), e);
            }
        }

        int integer(String column) {
            return (int) number(column);
        }
    }

    private static List<Row> rows(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read measurements " + file, e);
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(file + ": empty");
        }
        List<String> header = Arrays.asList(lines.get(0).split(",", -1));
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                rows.add(new Row(header, lines.get(i).split(",", -1), file + " line " + (i + 1)));
            }
        }
        return rows;
    }
}
