package org.polygpu.sched;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.dag.DagEdge;
import org.polygpu.export.ChromeTraceExport;
import org.polygpu.export.DotExport;
import org.polygpu.export.Eviction;
import org.polygpu.export.ScheduleLog;

/**
 * What a context records for its exports, as configured: the schedule log ({@code RecordDag}) of every computation
 * and edge, kept after the live DAG pruned them, and the backend's timeline ({@code RecordTimeline}).
 */
final class ScheduleRecording {
    private final Backend backend;
    private final ScheduleLog log;
    private final boolean timeline;
    private final List<Eviction> evictions = new ArrayList<>();

    ScheduleRecording(Backend backend, RuntimeConfig config) {
        this.backend = backend;
        this.log = config.recordDag() ? new ScheduleLog() : null;
        this.timeline = config.recordTimeline();
        backend.recordTimeline(timeline);
    }

    boolean recordsDag() {
        return log != null;
    }

    ScheduleLog log() {
        return log;
    }

    /**
     * The edges from {@code c}'s live parents, taken when it joins the DAG: the dependencies the scheduler honours,
     * before waiting retires the parents and prunes the edges. Empty unless the DAG is recorded.
     */
    List<ScheduleLog.Edge> parentEdges(Computation c) {
        if (log == null) {
            return List.of();
        }
        List<ScheduleLog.Edge> edges = new ArrayList<>(c.vertex().parentCount());
        for (DagEdge<Computation> e : c.vertex().parents()) {
            edges.add(new ScheduleLog.Edge(e.from().computation().id(), c.id(),
                    e.arrays().stream().map(DeviceArray::toString).toList()));
        }
        return edges;
    }

    /** Logs {@code c}, just joined to the DAG, with the edges from its live parents. */
    void scheduled(Computation c) {
        scheduled(c, parentEdges(c));
    }

    /** Logs {@code c}, scheduled, with {@code edges}, the {@link #parentEdges} taken when it joined the DAG. */
    void scheduled(Computation c, List<ScheduleLog.Edge> edges) {
        if (log == null) {
            return;
        }
        List<String> args = new ArrayList<>();
        for (ArrayAccess a : c.accessArray()) {
            args.add(a.array() + " " + a.access().name().toLowerCase(Locale.ROOT));
        }
        log.add(new ScheduleLog.Node(c.id(), c.kind().name(), c.name(), c.device(), c.streamId(), args));
        edges.forEach(log::add);
    }

    /** Keeps {@code e} for the trace, when the timeline is recorded. */
    void evicted(Eviction e) {
        if (timeline) {
            evictions.add(e);
        }
    }

    /** The evictions so far (empty unless the timeline is recorded). */
    List<Eviction> evictions() {
        return List.copyOf(evictions);
    }

    void exportDag(Path file) {
        if (log == null) {
            throw new IllegalStateException("the DAG was not recorded: create the context with RecordDag=true");
        }
        DotExport.write(log, file);
    }

    void checkTimeline() {
        if (!timeline) {
            throw new IllegalStateException("the timeline was not recorded: create the context with "
                    + "RecordTimeline=true");
        }
    }

    /** Writes the timeline; the caller has waited for all work. */
    void exportTrace(Path file) {
        checkTimeline();
        ChromeTraceExport.write(backend.timeline(), log, evictions, file);
    }
}
