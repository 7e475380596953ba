package org.polygpu.bench.study;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernels and copies of a Chrome trace written by {@code ExportTrace}, in exact nanoseconds (the export prints
 * nanoseconds as microseconds with three decimals, which this reads back without rounding): the makespan, the bytes
 * copied in each direction, how long each computation's kernel would take alone on its device and the device time
 * the kernels consumed (the {@code alone} and {@code work} arguments of a kernel; its duration in a trace without
 * them).
 *
 * @param makespanNanos    first kernel or copy's start to the last one's end, 0 without any
 * @param bytesHostToDevice bytes of the copies from the host to a device
 * @param bytesDeviceToDevice bytes of the copies between devices
 * @param bytesDeviceToHost bytes of the copies from a device to the host
 * @param kernelNanos       each computation's kernel time alone on its device, by computation id
 * @param workNanos         the device time every kernel consumed, summed
 */
record TraceTimeline(long makespanNanos, long bytesHostToDevice, long bytesDeviceToDevice, long bytesDeviceToHost,
                     Map<Long, Long> kernelNanos, long workNanos) {
    private static final Pattern EVENT = Pattern.compile("\"cat\":\"(kernel|copy)\",\"ph\":\"X\","
            + "\"ts\":(-?[0-9]+\\.[0-9]{3}),\"dur\":([0-9]+\\.[0-9]{3}),"
            + "\"pid\":-?[0-9]+,\"tid\":-?[0-9]+,\"args\":\\{([^}]*)}");
    private static final Pattern COMPUTATION = Pattern.compile("\"computation\":([0-9]+)");
    private static final Pattern KIND = Pattern.compile("\"kind\":\"([^\"]*)\"");
    private static final Pattern BYTES = Pattern.compile("\"bytes\":([0-9]+)");
    private static final Pattern ALONE = Pattern.compile("\"alone\":([0-9]+\\.[0-9]{3})");
    private static final Pattern WORK = Pattern.compile("\"work\":([0-9]+\\.[0-9]{3})");

    /** Reads {@code trace}; fails naming the file when it holds no kernel or copy. */
    static TraceTimeline read(Path trace) {
        String json;
        try {
            json = Files.readString(trace);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the trace " + trace, e);
        }
        return parse(json, trace.toString());
    }

    /** Parses the text of a trace; {@code source} names it in errors. */
    static TraceTimeline parse(String json, String source) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long[] bytes = new long[3];
        Map<Long, Long> kernels = new TreeMap<>();
        long work = 0;
        Matcher m = EVENT.matcher(json);
        List<String> unknownKinds = new ArrayList<>();
        while (m.find()) {
            long start = nanos(m.group(2));
            long end = start + nanos(m.group(3));
            first = Math.min(first, start);
            last = Math.max(last, end);
            String args = m.group(4);
            if (m.group(1).equals("kernel")) {
                Matcher alone = ALONE.matcher(args);
                Matcher used = WORK.matcher(args);
                work += used.find() ? nanos(used.group(1)) : end - start;
                Matcher id = COMPUTATION.matcher(args);
                if (id.find()) {
                    kernels.merge(Long.parseLong(id.group(1)), alone.find() ? nanos(alone.group(1)) : end - start,
                            Long::sum);
                }
                continue;
            }
            Matcher kind = KIND.matcher(args);
            Matcher size = BYTES.matcher(args);
            if (!kind.find() || !size.find()) {
                throw new IllegalStateException(source + ": a copy without its kind or bytes: " + args);
            }
            switch (kind.group(1)) {
                case "copy host to device" -> bytes[0] += Long.parseLong(size.group(1));
                case "copy device to device" -> bytes[1] += Long.parseLong(size.group(1));
                case "copy device to host" -> bytes[2] += Long.parseLong(size.group(1));
                default -> unknownKinds.add(kind.group(1));
            }
        }
        if (!unknownKinds.isEmpty()) {
            throw new IllegalStateException(source + ": copies of unknown kinds " + unknownKinds);
        }
        if (first > last) {
            throw new IllegalStateException(source + " holds no kernel or copy: was the context created with "
                    + "EnableComputationTimers=true?");
        }
        return new TraceTimeline(last - first, bytes[0], bytes[1], bytes[2], kernels, work);
    }

    /** The device time every kernel consumed, ns: what the GPUs together must spend on kernels. */
    long totalKernelNanos() {
        return workNanos;
    }

    /** {@code 12.345} µs as 12345 ns, exactly. */
    private static long nanos(String micros) {
        return Long.parseLong(micros.replace(".", ""));
    }
}
