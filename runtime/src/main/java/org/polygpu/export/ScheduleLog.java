package org.polygpu.export;

import java.util.ArrayList;
import java.util.List;

/**
 * A compact record of every scheduled computation and dependency edge, kept (when enabled) after the live DAG
 * pruned them, so the whole schedule can be exported at the end. Not thread-safe.
 */
public final class ScheduleLog {
    /** One computation: where it ran and what it used. Device and stream are -1 for host-side work. */
    public record Node(long id, String kind, String name, int device, int stream, List<String> arguments) {
    }

    /** A dependency, labelled with the arrays that caused it. */
    public record Edge(long from, long to, List<String> arrays) {
    }

    private final ArrayList<Node> nodes = new ArrayList<>();
    private final ArrayList<Edge> edges = new ArrayList<>();

    /** An empty log. */
    public ScheduleLog() {
    }

    public void add(Node node) {
        nodes.add(node);
    }

    public void add(Edge edge) {
        edges.add(edge);
    }

    public List<Node> nodes() {
        return List.copyOf(nodes);
    }

    public List<Edge> edges() {
        return List.copyOf(edges);
    }
}
