package org.polygpu.export;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Graphviz DOT text of a whole schedule ({@code ExportDAG}): one node per computation labelled with its id, name
 * and arguments with their access modes; nodes clustered by device and then by stream, host-side computations in a
 * {@code host} cluster; one edge per dependency, labelled with the arrays that caused it.
 *
 * <p>The text depends only on the log: clusters come host first, then by device and stream number, nodes in log
 * order inside their cluster, edges in log order; the same log always gives the same text. Every string is
 * written quoted and escaped so that names holding quotes, backslashes, newlines or {@code &} render literally.
 * Stateless and thread-safe.
 */
public final class DotExport {
    private static final String INDENT = "    ";

    private DotExport() {
    }

    /** The DOT text of {@code log}'s computations and dependencies. */
    public static String toDot(ScheduleLog log) {
        StringBuilder out = new StringBuilder(256);
        out.append("digraph schedule {\n");
        out.append(INDENT).append("compound=true;\n");
        out.append(INDENT).append("node [shape=box, fontname=\"Helvetica\"];\n");
        out.append(INDENT).append("edge [fontname=\"Helvetica\", fontsize=10];\n");
        Placement placement = Placement.of(log.nodes());
        if (!placement.host.isEmpty()) {
            out.append(INDENT).append("subgraph cluster_host {\n");
            out.append(INDENT).append(INDENT).append("label=").append(quote("host")).append(";\n");
            appendNodes(out, placement.host, 2);
            out.append(INDENT).append("}\n");
        }
        for (Map.Entry<Integer, DevicePlacement> device : placement.devices.entrySet()) {
            appendDevice(out, device.getKey(), device.getValue());
        }
        for (ScheduleLog.Edge e : log.edges()) {
            out.append(INDENT).append(nodeId(e.from())).append(" -> ").append(nodeId(e.to()))
                    .append(" [label=").append(quote(String.join("\n", e.arrays()))).append("];\n");
        }
        out.append("}\n");
        return out.toString();
    }

    /**
     * Writes {@link #toDot(ScheduleLog)} to {@code file} in UTF-8, replacing it.
     *
     * @throws IllegalStateException naming the file and the reason when it cannot be written
     */
    public static void write(ScheduleLog log, Path file) {
        try {
            Files.writeString(file, toDot(log), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw WriteFailure.of("the DAG export", file, e);
        }
    }

    private static void appendDevice(StringBuilder out, int device, DevicePlacement placement) {
        String cluster = "cluster_dev" + device;
        out.append(INDENT).append("subgraph ").append(cluster).append(" {\n");
        out.append(INDENT).append(INDENT).append("label=").append(quote("device " + device)).append(";\n");
        appendNodes(out, placement.withoutStream, 2);
        for (Map.Entry<Integer, List<ScheduleLog.Node>> stream : placement.streams.entrySet()) {
            String indent = INDENT.repeat(2);
            out.append(indent).append("subgraph ").append(cluster).append("_s").append(stream.getKey())
                    .append(" {\n");
            out.append(indent).append(INDENT).append("label=").append(quote("stream " + stream.getKey()))
                    .append(";\n");
            appendNodes(out, stream.getValue(), 3);
            out.append(indent).append("}\n");
        }
        out.append(INDENT).append("}\n");
    }

    private static void appendNodes(StringBuilder out, List<ScheduleLog.Node> nodes, int depth) {
        String indent = INDENT.repeat(depth);
        for (ScheduleLog.Node n : nodes) {
            out.append(indent).append(nodeId(n.id())).append(" [label=").append(quote(label(n)))
                    .append(", shape=").append(shape(n.kind())).append("];\n");
        }
    }

    /** The first line names the computation, one line per argument follows. */
    private static String label(ScheduleLog.Node n) {
        StringBuilder sb = new StringBuilder().append(n.id()).append(": ").append(n.name());
        for (String argument : n.arguments()) {
            sb.append('\n').append(argument);
        }
        return sb.toString();
    }

    private static String shape(String kind) {
        return switch (kind) {
            case "COPY" -> "box, style=rounded";
            case "HOST_READ", "HOST_WRITE" -> "ellipse";
            case "FREE" -> "octagon";
            default -> "box";
        };
    }

    static String nodeId(long id) {
        return id < 0 ? "c_" + -id : "c" + id;
    }

    /**
     * {@code text} as a DOT quoted string: quotes and backslashes escaped, line breaks as {@code \n}, {@code &}
     * as an entity (Graphviz decodes entities in labels), other control characters as spaces and unpaired
     * surrogates as U+FFFD so the UTF-8 file is always valid.
     */
    static String quote(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '&' -> sb.append("&amp;");
                case '\r' -> {
                    if (i + 1 >= text.length() || text.charAt(i + 1) != '\n') {
                        sb.append("\\n");
                    }
                }
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1))) {
                        sb.append(c).append(text.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        sb.append('\uFFFD');
                    } else {
                        sb.append(c < ' ' || c == '\u007F' ? ' ' : c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** The nodes of one device: by stream number, and those without a stream. */
    private record DevicePlacement(TreeMap<Integer, List<ScheduleLog.Node>> streams,
                                   List<ScheduleLog.Node> withoutStream) {
    }

    /** Which cluster each node goes to, in a deterministic order. */
    private record Placement(List<ScheduleLog.Node> host, TreeMap<Integer, DevicePlacement> devices) {
        static Placement of(List<ScheduleLog.Node> nodes) {
            List<ScheduleLog.Node> host = new ArrayList<>();
            TreeMap<Integer, DevicePlacement> devices = new TreeMap<>();
            for (ScheduleLog.Node n : nodes) {
                if (n.device() < 0) {
                    host.add(n);
                    continue;
                }
                DevicePlacement d = devices.computeIfAbsent(n.device(),
                        k -> new DevicePlacement(new TreeMap<>(), new ArrayList<>()));
                if (n.stream() < 0) {
                    d.withoutStream().add(n);
                } else {
                    d.streams().computeIfAbsent(n.stream(), k -> new ArrayList<>()).add(n);
                }
            }
            return new Placement(host, devices);
        }
    }
}
