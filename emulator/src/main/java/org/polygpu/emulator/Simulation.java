package org.polygpu.emulator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;
import org.polygpu.backend.TimedOperation;

/**
 * The discrete-event simulation of every device: a virtual clock in nanoseconds and a priority queue of what happens
 * next (a stream may start its head, an operation ends, a copy joins its link, a link's next transfer ends, a kernel
 * starts executing on its device, a device's next kernel ends).
 *
 * <p>Events fire in (time, operation sequence, scheduling order) order, so completions at one instant are processed
 * in enqueue order and the same program always produces the same timeline. No wall clock, no threads and no hash
 * iteration order take part.
 *
 * <p>The simulation is lazy: the backend advances it only up to the host's virtual time (nothing enqueued later can
 * start earlier, so the state it reaches is final) or, to block the host, until a condition holds.
 *
 * <p>Invariant: every stream with incomplete operations either has an event scheduled for its head or its head
 * waits for an event point, registered there; points precede their waits in enqueue order, so nothing deadlocks.
 */
final class Simulation {
    private static final Comparator<Scheduled> ORDER = Comparator.comparingLong(Scheduled::time)
            .thenComparingLong(Scheduled::sequence).thenComparingLong(Scheduled::order);

    private final PriorityQueue<Scheduled> queue = new PriorityQueue<>(ORDER);
    private final LinkModel links;
    private final ComputeModel[] devices;
    private final long copyLatencyNanos;
    private final List<TimedOperation> timeline = new ArrayList<>();
    private boolean recording;
    private long now;
    private long order;
    private long makespan;

    /** Something that happens at a virtual time; {@code sequence} is the operation's, {@code order} breaks ties. */
    private record Scheduled(long time, long sequence, long order, Action action) {
    }

    private sealed interface Action permits TryStart, Complete, JoinLink, LinkDue, Execute, DeviceDue {
    }

    private record TryStart(EmulatedStream stream) implements Action {
    }

    private record Complete(Operation operation) implements Action {
    }

    private record JoinLink(LinkTransfer transfer) implements Action {
    }

    private record LinkDue(LinkModel.Link link, long version) implements Action {
    }

    private record Execute(KernelOperation kernel) implements Action {
    }

    private record DeviceDue(ComputeModel device, long version) implements Action {
    }

    /** @param devices the execution resources of each device, by device index */
    Simulation(LinkModel links, ComputeModel[] devices, long copyLatencyNanos) {
        this.links = links;
        this.devices = devices.clone();
        this.copyLatencyNanos = copyLatencyNanos;
    }

    long now() {
        return now;
    }

    long copyLatencyNanos() {
        return copyLatencyNanos;
    }

    LinkModel links() {
        return links;
    }

    /** End of the last completed copy or kernel, or 0. */
    long makespan() {
        return makespan;
    }

    void recordTimeline(boolean enabled) {
        recording = enabled;
    }

    List<TimedOperation> timeline() {
        return Collections.unmodifiableList(new ArrayList<>(timeline));
    }

    /** Appends {@code op} to its stream, no earlier than {@code hostNanos}, which is not before {@link #now()}. */
    void enqueue(Operation op, long sequence, long hostNanos) {
        op.enqueued(sequence, hostNanos);
        EmulatedStream stream = op.stream();
        stream.add(op);
        if (stream.head() == op) {
            schedule(hostNanos, op.sequence(), new TryStart(stream));
        }
    }

    /** Fires every event due at or before {@code time}, then moves the clock there. */
    void advanceTo(long time) {
        while (!queue.isEmpty() && queue.peek().time() <= time) {
            fireNext();
        }
        now = Math.max(now, time);
    }

    /**
     * Fires events until {@code done} holds, past the host's time if need be (the host is blocked meanwhile).
     *
     * @throws IllegalStateException if nothing is left to fire and {@code done} still does not hold
     */
    void runUntil(BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            if (queue.isEmpty()) {
                throw new IllegalStateException("the simulation has nothing left to run but the awaited work is "
                        + "incomplete");
            }
            fireNext();
        }
    }

    /** Fires every event: all enqueued work completes. */
    void runAll() {
        while (!queue.isEmpty()) {
            fireNext();
        }
    }

    /** Called by an operation's {@link Operation#start}: it ends at {@code time}. */
    void completeAt(Operation op, long time) {
        schedule(time, op.sequence(), new Complete(op));
    }

    /** Called by a copy's {@link Operation#start}, or per leg by a migration: it moves bytes from {@code time}. */
    void joinLinkAt(LinkTransfer transfer, long time) {
        schedule(time, transfer.sequence(), new JoinLink(transfer));
    }

    /** Called by a kernel's {@link Operation#start}: it starts executing on its device at {@code time}. */
    void executeAt(KernelOperation kernel, long time) {
        schedule(time, kernel.sequence(), new Execute(kernel));
    }

    private void schedule(long time, long sequence, Action action) {
        queue.add(new Scheduled(time, sequence, order++, action));
    }

    private void fireNext() {
        Scheduled next = queue.poll();
        now = next.time();
        switch (next.action()) {
            case TryStart t -> tryStart(t.stream());
            case Complete c -> complete(c.operation());
            case JoinLink j -> predict(j.transfer().link(), j.transfer().link().join(j.transfer(), now));
            case LinkDue d -> {
                if (d.version() == d.link().version()) {
                    LinkTransfer done = d.link().finishNext(now);
                    predict(d.link(), d.link().version());
                    // A migration with pages from several locations moves them one source after another.
                    if (!(done instanceof MigrationOperation m && m.nextLeg(this))) {
                        complete((Operation) done);
                    }
                }
            }
            case Execute e -> {
                ComputeModel device = devices[e.kernel().stream().device()];
                predict(device, device.join(e.kernel(), now));
            }
            case DeviceDue d -> {
                if (d.version() == d.device().version()) {
                    KernelOperation done = d.device().finishNext(now);
                    predict(d.device(), d.device().version());
                    complete(done);
                }
            }
        }
    }

    private void predict(ComputeModel device, long version) {
        KernelOperation head = device.next();
        if (head != null) {
            schedule(device.nextCompletion(now), head.sequence(), new DeviceDue(device, version));
        }
    }

    private void predict(LinkModel.Link link, long version) {
        LinkTransfer head = link.next();
        if (head != null) {
            schedule(link.nextCompletion(now), head.sequence(), new LinkDue(link, version));
        }
    }

    private void tryStart(EmulatedStream stream) {
        Operation head = stream.head();
        if (head == null || head.state() != Operation.State.QUEUED) {
            return;
        }
        if (head.enqueueNanos() > now) {
            schedule(head.enqueueNanos(), head.sequence(), new TryStart(stream));
            return;
        }
        if (head instanceof EventWaitOperation wait && !wait.point().isComplete()) {
            wait.point().addWaiter(stream);
            return;
        }
        head.started(now);
        head.start(this);
    }

    /**
     * Completes {@code op} now: bookkeeping first (the stream moves on, waiting streams are woken, the timeline
     * grows), then the data effect, so that an effect that throws leaves the simulation consistent.
     */
    private void complete(Operation op) {
        op.completed(now);
        EmulatedStream stream = op.stream();
        stream.removeHead(op);
        Operation next = stream.head();
        if (next != null) {
            schedule(Math.max(now, next.enqueueNanos()), next.sequence(), new TryStart(stream));
        }
        if (op instanceof EventRecordOperation point) {
            for (EmulatedStream waiter : point.takeWaiters()) {
                schedule(now, waiter.head().sequence(), new TryStart(waiter));
            }
        }
        if (op instanceof CopyOperation || op instanceof KernelOperation || op instanceof MigrationOperation) {
            makespan = Math.max(makespan, now);
            if (recording) {
                timeline.add(op.timed());
            }
        }
        op.finish();
    }
}
