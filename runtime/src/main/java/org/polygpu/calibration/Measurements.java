package org.polygpu.calibration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.polygpu.backend.DeviceProperties;

/**
 * What the calibration suite measured on one device, with the device's identity and limits as its backend reported
 * them: everything a fit needs, so that a fit can be redone from the file alone. Written as CSV ({@value #FORMAT}):
 * {@code #}-lines with the device and the run, then {@code benchmark,parameter,unit,work,nanos} rows.
 *
 * @param device  the device's properties as its backend reports them
 * @param backend the backend that measured ({@code cuda}, {@code emulated})
 * @param date    the day of the run, {@code yyyy-mm-dd}
 * @param rows    the measurements, in the order they were taken; no two share benchmark and parameter
 */
public record Measurements(DeviceProperties device, String backend, String date, List<Measurement> rows) {
    /** The first line of every measurements file. */
    public static final String FORMAT = "polygpu-calibration-1";
    private static final String HEADER = "benchmark,parameter,unit,work,nanos";

    public Measurements {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(date, "date");
        rows = List.copyOf(rows);
        Map<String, Measurement> seen = new LinkedHashMap<>();
        for (Measurement m : rows) {
            if (seen.put(m.benchmark() + " " + m.parameter(), m) != null) {
                throw new IllegalArgumentException("two measurements of " + m.benchmark() + " " + m.parameter());
            }
        }
    }

    /** The measurement of {@code benchmark} with {@code parameter}, if taken. */
    public Optional<Measurement> find(String benchmark, String parameter) {
        return rows.stream().filter(m -> m.benchmark().equals(benchmark) && m.parameter().equals(parameter))
                .findFirst();
    }

    /**
     * The measurement of {@code benchmark} with {@code parameter}.
     *
     * @throws IllegalArgumentException naming what is missing
     */
    public Measurement get(String benchmark, String parameter) {
        return find(benchmark, parameter).orElseThrow(() -> new IllegalArgumentException("the measurements lack "
                + benchmark + " " + parameter));
    }

    /** Every measurement of {@code benchmark}, in order. */
    public List<Measurement> of(String benchmark) {
        return rows.stream().filter(m -> m.benchmark().equals(benchmark)).toList();
    }

    /** The file's text. */
    public String toCsv() {
        StringBuilder b = new StringBuilder("# " + FORMAT + "\n");
        DeviceProperties d = device;
        b.append("# device: ").append(d.name()).append('\n')
                .append("# computeCapability: ").append(d.computeCapability()).append('\n')
                .append("# totalMemoryBytes: ").append(d.totalMemory()).append('\n')
                .append("# multiprocessors: ").append(d.multiprocessors()).append('\n')
                .append("# clockKhz: ").append(d.clockKhz()).append('\n')
                .append("# maxThreadsPerBlock: ").append(d.maxThreadsPerBlock()).append('\n')
                .append("# maxSharedMemoryPerBlock: ").append(d.maxSharedMemoryPerBlock()).append('\n')
                .append("# warpSize: ").append(d.warpSize()).append('\n')
                .append("# backend: ").append(backend).append('\n')
                .append("# date: ").append(date).append('\n')
                .append(HEADER).append('\n');
        for (Measurement m : rows) {
            b.append(m.benchmark()).append(',').append(m.parameter()).append(',').append(m.unit()).append(',')
                    .append(m.work()).append(',').append(m.nanos()).append('\n');
        }
        return b.toString();
    }

    /**
     * Writes the file, replacing it.
     *
     * @throws UncheckedIOException when it cannot be written
     */
    public void write(Path file) {
        try {
            Files.writeString(file, toCsv(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write measurements file " + file, e);
        }
    }

    /**
     * The measurements in {@code file}.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static Measurements read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read measurements file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The measurements {@code text} holds; {@code source} names it in messages. */
    public static Measurements parse(String text, String source) {
        List<String> lines = text.lines().toList();
        if (lines.isEmpty() || !lines.get(0).equals("# " + FORMAT)) {
            throw new IllegalArgumentException(source + ": not a measurements file (the first line must be '# "
                    + FORMAT + "')");
        }
        Map<String, String> meta = new LinkedHashMap<>();
        List<Measurement> rows = new ArrayList<>();
        boolean header = false;
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            String where = source + " line " + (i + 1);
            if (line.isBlank()) {
                continue;
            }
            if (!header && line.startsWith("# ") && line.indexOf(": ") > 2) {
                int colon = line.indexOf(": ");
                meta.put(line.substring(2, colon), line.substring(colon + 2));
            } else if (!header && line.equals(HEADER)) {
                header = true;
            } else if (header) {
                rows.add(row(line, where));
            } else {
                throw new IllegalArgumentException(where + ": expected '# key: value' or '" + HEADER + "', got '"
                        + line + "'");
            }
        }
        DeviceProperties device;
        try {
            String[] cc = field(meta, "computeCapability", source).split("\\.");
            device = new DeviceProperties(field(meta, "device", source), Integer.parseInt(cc[0]),
                    Integer.parseInt(cc[1]), Long.parseLong(field(meta, "totalMemoryBytes", source)),
                    Integer.parseInt(field(meta, "multiprocessors", source)),
                    Integer.parseInt(field(meta, "clockKhz", source)),
                    Integer.parseInt(field(meta, "maxThreadsPerBlock", source)),
                    Integer.parseInt(field(meta, "maxSharedMemoryPerBlock", source)),
                    Integer.parseInt(field(meta, "warpSize", source)));
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException(source + ": a device property is not a number: " + e.getMessage(), e);
        }
        return new Measurements(device, field(meta, "backend", source), field(meta, "date", source), rows);
    }

    private static String field(Map<String, String> meta, String key, String source) {
        String v = meta.get(key);
        if (v == null) {
            throw new IllegalArgumentException(source + ": the '# " + key + ": ' line is missing");
        }
        return v;
    }

    private static Measurement row(String line, String where) {
        String[] f = line.split(",", -1);
        if (f.length != 5) {
            throw new IllegalArgumentException(where + ": expected 5 fields (" + HEADER + "), got '" + line + "'");
        }
        try {
            return new Measurement(f[0], f[1], f[2], Double.parseDouble(f[3]), Double.parseDouble(f[4]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": work and nanos must be numbers, got '" + line + "'", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }
}
