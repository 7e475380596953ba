package org.polygpu.bench.fidelity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A study kernel's launch as the study programs make it ({@code benchmarks/.../programs/}): the source file and
 * function, and its arguments, buffers (by element count, filled with a constant) and scalars, for a problem size
 * such as {@code n=524288} or {@code n=2048 rows=128}. The ML kernels have {@value #FEATURES} features and
 * {@value #CLASSES} classes, as in the programs.
 *
 * @param file      source file without {@code .cu}, e.g. {@code bs}
 * @param function  kernel name
 * @param arguments {@link Buffer}s and boxed scalars ({@code Integer}, {@code Float}), in order
 */
public record StudyLaunch(String file, String function, List<Object> arguments) {
    static final int FEATURES = 32;
    static final int CLASSES = 5;

    /**
     * A device buffer argument.
     *
     * @param elements 4-byte elements (8 for {@code doubles})
     * @param value    what every element holds
     * @param doubles  whether the elements are doubles
     */
    public record Buffer(long elements, float value, boolean doubles) {
        long bytes() {
            return elements * (doubles ? 8 : 4);
        }
    }

    /** The launch of {@code kernel} ({@code file.function}) for problem {@code size}. */
    public static StudyLaunch of(String kernel, String size) {
        int dot = kernel.indexOf('.');
        if (dot < 0) {
            throw new IllegalArgumentException("kernel '" + kernel + "' is not file.function");
        }
        Map<String, Long> s = sizes(size);
        String file = kernel.substring(0, dot);
        String function = kernel.substring(dot + 1);
        List<Object> a = new ArrayList<>();
        switch (kernel) {
            case "vec.square" -> args(a, floats(s, "n"), n(s, "n"));
            case "vec.diff_sum" -> args(a, floats(s, "n"), floats(s, "n"), new Buffer(1, 0, true), n(s, "n"));
            case "bs.black_scholes" -> args(a, new Buffer(s.get("n"), 100, false), floats(s, "n"), n(s, "n"), 60f,
                    0.02f, 0.3f, 1f);
            case "ml.nb_scores" -> args(a, buffer(s.get("rows") * FEATURES), buffer(CLASSES * FEATURES),
                    buffer(CLASSES), buffer(s.get("rows") * CLASSES), n(s, "rows"), FEATURES, CLASSES);
            case "ml.rr_scores" -> args(a, buffer(s.get("rows") * FEATURES), buffer(FEATURES), buffer(FEATURES),
                    buffer(CLASSES * FEATURES), buffer(CLASSES), buffer(s.get("rows") * CLASSES), n(s, "rows"),
                    FEATURES, CLASSES);
            case "ml.softmax" -> args(a, buffer(s.get("rows") * CLASSES), n(s, "rows"), CLASSES);
            case "ml.argmax_sum" -> args(a, buffer(s.get("rows") * CLASSES), buffer(s.get("rows") * CLASSES),
                    floats(s, "rows"), n(s, "rows"), CLASSES);
            case "cg.matvec", "mul.matvec" -> args(a, buffer(s.get("rows") * s.get("n")), floats(s, "n"),
                    floats(s, "rows"), n(s, "rows"), n(s, "n"));
            case "cg.norm2" -> args(a, floats(s, "rows"), buffer(1), n(s, "rows"));
            case "cg.dot_slice" -> args(a, floats(s, "rows"), 0, floats(s, "rows"), buffer(1), n(s, "rows"));
            case "cg.accumulate" -> args(a, buffer(1), buffer(1), 1);
            case "cg.update_xr" -> args(a, floats(s, "rows"), floats(s, "rows"), floats(s, "rows"), 0,
                    floats(s, "rows"), buffer(1), buffer(1), n(s, "rows"));
            case "cg.update_p" -> args(a, floats(s, "rows"), 0, floats(s, "rows"), buffer(1), buffer(1),
                    n(s, "rows"));
            default -> throw new IllegalArgumentException("unknown study kernel '" + kernel + "'");
        }
        return new StudyLaunch(file, function, List.copyOf(a));
    }

    /** The bytes of all buffer arguments. */
    public long bufferBytes() {
        return arguments.stream().filter(Buffer.class::isInstance).mapToLong(b -> ((Buffer) b).bytes()).sum();
    }

    private static void args(List<Object> list, Object... values) {
        list.addAll(List.of(values));
    }

    private static Buffer floats(Map<String, Long> s, String key) {
        return buffer(s.get(key));
    }

    private static Buffer buffer(long elements) {
        return new Buffer(elements, 1, false);
    }

    private static int n(Map<String, Long> s, String key) {
        return Math.toIntExact(s.get(key));
    }

    /** {@code n=2048 rows=128} as a map; matvec sizes without rows have as many rows as columns. */
    private static Map<String, Long> sizes(String size) {
        Map<String, Long> m = new HashMap<>();
        for (String part : size.strip().split("\\s+")) {
            if (part.isEmpty()) {
                continue;
            }
            String[] kv = part.split("=");
            if (kv.length != 2) {
                throw new IllegalArgumentException("size '" + size + "' is not key=value pairs");
            }
            m.put(kv[0], Long.parseLong(kv[1]));
        }
        return m;
    }
}
