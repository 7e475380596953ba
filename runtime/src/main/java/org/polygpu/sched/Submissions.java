package org.polygpu.sched;

import java.util.List;

import org.polygpu.backend.Backend;
import org.polygpu.backend.OperationLabel;
import org.polygpu.config.ExecutionPolicy;
import org.polygpu.dag.DagVertex;
import org.polygpu.export.ScheduleLog;

/**
 * Submits computations to the devices: each joins the DAG, gets a device and stream, waits for its parents, has its
 * arrays made coherent there and is enqueued with a completion event after it. Not thread-safe: used by the execution
 * context's thread.
 */
final class Submissions {
    /** Busy streams polled for completion after each asynchronous launch. */
    private static final int STREAMS_POLLED_PER_LAUNCH = 2;

    private final Backend backend;
    private final ExecutionPolicy policy;
    private final Schedule schedule;
    private final StreamPool pool;
    private final StreamAssignment assignment;
    private final ReplicaTransfers transfers;
    private final ScheduleRecording recording;
    /**
     * Submissions between two polls: 1 when every computation has its own event; else a quarter of the computations
     * that may share one, so a pending event is queried a few times before the next is recorded, not after each launch.
     */
    private final int pollInterval;
    private long submitted;

    Submissions(Backend backend, ExecutionPolicy policy, Schedule schedule, StreamAssignment assignment,
                ReplicaTransfers transfers, ScheduleRecording recording) {
        this.backend = backend;
        this.policy = policy;
        this.schedule = schedule;
        this.pool = schedule.pool();
        this.assignment = assignment;
        this.transfers = transfers;
        this.recording = recording;
        this.pollInterval = Math.max(1, backend.computationsPerCompletionEvent() / 4);
    }

    /**
     * Appends {@code c} to the DAG, gives it a stream that waits for its parents ({@code stream}'s when not null),
     * makes its arrays coherent there and enqueues its work with a completion event after it.
     *
     * <p>When enqueueing fails (the backend reported an error, possibly an earlier asynchronous one, or the
     * computation's arrays do not fit on its device), {@code c} is retired at once so nothing waits for it. Arrays it
     * was to write keep the coherence state it was given, as after a failed kernel on CUDA their contents are
     * undefined.
     */
    void submit(Computation c, UserStream stream) {
        DagVertex<Computation> v = schedule.append(c);
        List<ScheduleLog.Edge> edges = recording.parentEdges(c);
        StreamSlot slot;
        try {
            // Inside the try: a policy or stream failure must not leave the computation in the DAG for good.
            slot = stream != null ? stream.slot.handTo(c) : assignment.assign(c);
            pool.beforeEnqueue(slot, c);
            waitForParents(v, slot);
            c.scheduled(slot, pool.takeEvent(slot.device()));
            transfers.prepare(c);
            schedule.times().starting(c, pool);
            c.work().enqueue(backend, slot.device(), slot.handle, new OperationLabel(c.id(), c.name()));
            if (pool.recordsEveryEvent() || c.timing() != null) {
                pool.record(c);
            }
        } catch (RuntimeException e) {
            schedule.retire(c);
            throw e;
        }
        pool.enqueued(slot, c);
        recording.scheduled(c, edges);
        if (policy == ExecutionPolicy.SYNC) {
            pool.await(c);
        } else if (++submitted % pollInterval == 0) {
            pool.poll(STREAMS_POLLED_PER_LAUNCH);
        }
    }

    /** Cross-stream parents are waited with their completion events. */
    private void waitForParents(DagVertex<Computation> v, StreamSlot slot) {
        for (int i = 0; i < v.parentCount(); i++) {
            Computation p = v.parent(i).computation();
            if (!p.isFinished() && p.slot() != slot) {
                backend.streamWaitEvent(slot.handle, pool.completionOf(p).event());
            }
        }
    }
}
