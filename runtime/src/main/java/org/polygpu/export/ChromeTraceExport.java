package org.polygpu.export;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.polygpu.backend.TimedOperation;

/**
 * The Chrome trace-event JSON of a timeline ({@code ExportTrace}), which Perfetto and {@code chrome://tracing} open:
 * one process per device ({@code pid} = device, named {@code device N}), one thread per stream ({@code tid} =
 * stream number, named {@code stream S}), one complete event ({@code ph:"X"}) per kernel or copy with {@code ts}
 * and {@code dur} in microseconds, and a pair of flow events per dependency of the schedule log.
 *
 * <p>A dependency is drawn when both of its computations have a main operation in the timeline: the kernel of a
 * launch, or the device-to-device copy of a copy computation (the last one labelled with its id, after the
 * transfers that made its source valid). The flow start ({@code ph:"s"}) lies just before the end of the parent's
 * operation and the flow end ({@code ph:"f"}, {@code bp:"e"}) just after the start of the child's: at most 100 ns
 * inside, half the duration for shorter operations, so that viewers bind each to that operation and not to a
 * neighbour that starts or ends at the same instant on the same stream.
 *
 * <p>An {@link Eviction} is an instant event ({@code ph:"i"}, {@code cat:"eviction"}) on its device's process,
 * named as {@link Eviction#name()} says, when the computation it made room for has an operation on that device: at
 * the end of its write-back copy (which the timeline labels with that name), else at the start of the computation's
 * first other operation there, which the eviction preceded.
 *
 * <p>The text depends only on the inputs: metadata sorted by device and stream, operations in timeline order, flows
 * in log order numbered from 1; times are printed exactly (nanoseconds as microseconds with three decimals);
 * strings are escaped, non-ASCII included, so the file is plain ASCII. Stateless and thread-safe.
 */
public final class ChromeTraceExport {
    /** How far inside an operation a flow event is placed at most, in nanoseconds. */
    private static final long FLOW_INSET_NANOS = 100;

    private ChromeTraceExport() {
    }

    /**
     * The trace-event JSON of {@code timeline}.
     *
     * @param log the schedule whose dependencies become flow events, or null for none
     */
    public static String toJson(List<TimedOperation> timeline, ScheduleLog log) {
        return toJson(timeline, log, List.of());
    }

    /** The trace-event JSON of {@code timeline}, with instant events for {@code evictions}. */
    public static String toJson(List<TimedOperation> timeline, ScheduleLog log, List<Eviction> evictions) {
        StringBuilder out = new StringBuilder(128 + timeline.size() * 160);
        out.append("{\"traceEvents\":[");
        Events events = new Events(out);
        appendMetadata(events, timeline);
        for (TimedOperation op : timeline) {
            appendOperation(events, op);
        }
        if (log != null) {
            appendFlows(events, timeline, log);
        }
        if (!evictions.isEmpty()) {
            Map<Long, List<TimedOperation>> byComputation = new HashMap<>();
            for (TimedOperation op : timeline) {
                byComputation.computeIfAbsent(op.label().computationId(), k -> new ArrayList<>()).add(op);
            }
            for (Eviction e : evictions) {
                appendEviction(events, byComputation.getOrDefault(e.computationId(), List.of()), e);
            }
        }
        out.append("\n],\"displayTimeUnit\":\"ns\"}\n");
        return out.toString();
    }

    /**
     * Writes {@link #toJson(List, ScheduleLog)} to {@code file}, replacing it.
     *
     * @throws IllegalStateException naming the file and the reason when it cannot be written
     */
    public static void write(List<TimedOperation> timeline, ScheduleLog log, Path file) {
        write(timeline, log, List.of(), file);
    }

    /** Writes {@link #toJson(List, ScheduleLog, List)} to {@code file}, replacing it. */
    public static void write(List<TimedOperation> timeline, ScheduleLog log, List<Eviction> evictions, Path file) {
        try {
            Files.writeString(file, toJson(timeline, log, evictions), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw WriteFailure.of("the trace export", file, e);
        }
    }

    private static void appendMetadata(Events events, List<TimedOperation> timeline) {
        TreeMap<Integer, TreeSet<Integer>> streams = new TreeMap<>();
        for (TimedOperation op : timeline) {
            streams.computeIfAbsent(op.device(), k -> new TreeSet<>()).add(op.stream());
        }
        for (Map.Entry<Integer, TreeSet<Integer>> device : streams.entrySet()) {
            int pid = device.getKey();
            String processName = pid < 0 ? "host" : "device " + pid;
            events.begin().field("name", "process_name").field("ph", "M").field("pid", pid).field("tid", 0)
                    .object("args").field("name", processName).end().end();
            events.begin().field("name", "process_sort_index").field("ph", "M").field("pid", pid).field("tid", 0)
                    .object("args").field("sort_index", pid).end().end();
            for (int tid : device.getValue()) {
                events.begin().field("name", "thread_name").field("ph", "M").field("pid", pid).field("tid", tid)
                        .object("args").field("name", "stream " + tid).end().end();
                events.begin().field("name", "thread_sort_index").field("ph", "M").field("pid", pid)
                        .field("tid", tid).object("args").field("sort_index", tid).end().end();
            }
        }
    }

    private static void appendOperation(Events events, TimedOperation op) {
        boolean kernel = op.kind() == TimedOperation.Kind.KERNEL;
        String name = op.label().name().isEmpty() ? kindName(op.kind()) : op.label().name();
        Json e = events.begin().field("name", name).field("cat", kernel ? "kernel" : "copy").field("ph", "X")
                .micros("ts", op.startNanos()).micros("dur", op.endNanos() - op.startNanos())
                .field("pid", op.device()).field("tid", op.stream());
        Json args = e.object("args");
        if (op.label().computationId() >= 0) {
            args.field("computation", op.label().computationId());
        }
        if (kernel) {
            args.micros("alone", op.aloneNanos()).micros("work", op.workNanos());
        } else {
            args.field("kind", kindName(op.kind())).field("bytes", op.bytes())
                    .field("source", op.source() < 0 ? "host" : "device " + op.source());
        }
        args.end().end();
    }

    private static void appendFlows(Events events, List<TimedOperation> timeline, ScheduleLog log) {
        Map<Long, TimedOperation> main = mainOperations(timeline);
        long nextId = 1;
        for (ScheduleLog.Edge edge : log.edges()) {
            TimedOperation parent = main.get(edge.from());
            TimedOperation child = main.get(edge.to());
            if (parent == null || child == null) {
                continue;
            }
            long id = nextId++;
            String name = String.join(", ", edge.arrays());
            events.begin().field("name", "dependency").field("cat", "dependency").field("ph", "s").field("id", id)
                    .micros("ts", parent.endNanos() - inset(parent)).field("pid", parent.device())
                    .field("tid", parent.stream()).object("args").field("arrays", name).end().end();
            events.begin().field("name", "dependency").field("cat", "dependency").field("ph", "f").field("bp", "e")
                    .field("id", id).micros("ts", child.startNanos() + inset(child)).field("pid", child.device())
                    .field("tid", child.stream()).object("args").field("arrays", name).end().end();
        }
    }

    /** {@code e} as an instant event, placed among {@code operations}, those of the computation it made room for. */
    private static void appendEviction(Events events, List<TimedOperation> operations, Eviction e) {
        TimedOperation writeBack = null;
        TimedOperation first = null;
        for (TimedOperation op : operations) {
            if (op.device() != e.device()) {
                continue;
            }
            if (op.label().name().equals(e.name())) {
                writeBack = op;
            } else if (!op.label().name().startsWith("evict ") && (first == null
                    || op.startNanos() < first.startNanos())) {
                first = op;
            }
        }
        TimedOperation at = writeBack != null ? writeBack : first;
        if (at == null) {
            return;
        }
        events.begin().field("name", e.name()).field("cat", "eviction").field("ph", "i").field("s", "p")
                .micros("ts", writeBack != null ? at.endNanos() : at.startNanos()).field("pid", e.device())
                .field("tid", at.stream()).object("args").field("computation", e.computationId())
                .field("array", e.array()).field("bytes", e.bytes())
                .field("writtenBack", e.writtenBack() ? "yes" : "no").end().end();
    }

    /** Per computation id: its kernel, else its last device-to-device copy. */
    private static Map<Long, TimedOperation> mainOperations(List<TimedOperation> timeline) {
        Map<Long, TimedOperation> main = new HashMap<>();
        for (TimedOperation op : timeline) {
            long id = op.label().computationId();
            if (id < 0) {
                continue;
            }
            TimedOperation known = main.get(id);
            if (op.kind() == TimedOperation.Kind.KERNEL) {
                main.put(id, op);
            } else if (op.kind() == TimedOperation.Kind.COPY_DEVICE_TO_DEVICE && (known == null
                    || (known.kind() != TimedOperation.Kind.KERNEL && op.endNanos() >= known.endNanos()))) {
                main.put(id, op);
            }
        }
        return main;
    }

    private static long inset(TimedOperation op) {
        return Math.min(FLOW_INSET_NANOS, Math.max(0, op.endNanos() - op.startNanos()) / 2);
    }

    private static String kindName(TimedOperation.Kind kind) {
        return switch (kind) {
            case KERNEL -> "kernel";
            case COPY_HOST_TO_DEVICE -> "copy host to device";
            case COPY_DEVICE_TO_HOST -> "copy device to host";
            case COPY_DEVICE_TO_DEVICE -> "copy device to device";
        };
    }

    /** The comma-separated elements of the {@code traceEvents} array, one per line. */
    private static final class Events {
        private final StringBuilder out;
        private boolean first = true;

        Events(StringBuilder out) {
            this.out = out;
        }

        Json begin() {
            out.append(first ? "\n" : ",\n");
            first = false;
            return new Json(out, null);
        }
    }

    /** A JSON object being written: fields in call order, closed by {@link #end()}. */
    private static final class Json {
        private final StringBuilder out;
        private final Json parent;
        private boolean first = true;

        Json(StringBuilder out, Json parent) {
            this.out = out;
            this.parent = parent;
            out.append('{');
        }

        private StringBuilder key(String key) {
            out.append(first ? "" : ",");
            first = false;
            string(out, key);
            return out.append(':');
        }

        Json field(String key, String value) {
            string(key(key), value);
            return this;
        }

        Json field(String key, long value) {
            key(key).append(value);
            return this;
        }

        /** A time in nanoseconds written as microseconds, exactly. */
        Json micros(String key, long nanos) {
            StringBuilder sb = key(key);
            long abs = Math.abs(nanos);
            if (nanos < 0) {
                sb.append('-');
            }
            long fraction = abs % 1000;
            sb.append(abs / 1000).append('.').append(fraction < 100 ? (fraction < 10 ? "00" : "0") : "")
                    .append(fraction);
            return this;
        }

        Json object(String key) {
            key(key);
            return new Json(out, this);
        }

        /** Closes this object; returns the enclosing one, or null at the top. */
        Json end() {
            out.append('}');
            return parent;
        }
    }

    /** Appends {@code s} as a JSON string with every control and non-ASCII character escaped. */
    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < ' ' || c >= '\u007F') {
                        out.append("\\u").append(Character.forDigit(c >> 12 & 0xF, 16))
                                .append(Character.forDigit(c >> 8 & 0xF, 16))
                                .append(Character.forDigit(c >> 4 & 0xF, 16))
                                .append(Character.forDigit(c & 0xF, 16));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
