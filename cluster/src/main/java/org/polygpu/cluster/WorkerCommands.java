package org.polygpu.cluster;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongFunction;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.LibraryRoutine;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;
import org.polygpu.blas.BlasFunctions;

/**
 * A worker's execution of rank 0's messages for one opened backend, on the worker's command thread: batched commands
 * are decoded here and handed to their stream's {@link StreamQueue}; calls are answered here, with the first failure
 * of an asynchronous command since the last answer (a failure of the worker surfaces on rank 0 at its next call).
 * Freeing memory and destroying events first wait until the queues have run what came before.
 */
final class WorkerCommands implements AutoCloseable {
    private final Transport transport;
    private final Backend local;
    private final RankClock clock;
    private final ObjectTable objects;
    private final LocalService service;
    private final EventGenerations events;
    private final LongFunction<String> threadName;
    private final Map<Long, StreamQueue> queues = new HashMap<>();
    /** Queues of destroyed streams, until their last commands have run. */
    private final List<StreamQueue> ending = new ArrayList<>();
    private final Map<Long, ModuleImage> images = new HashMap<>();
    private final AtomicReference<String> failure = new AtomicReference<>("");
    /** Per stream, the computations launched since its last record. */
    private final Map<Long, List<Long>> launchedSince = new HashMap<>();
    /** Per event, the generation of its last record and the computations launched before it on its stream. */
    private final Map<Long, Launches> launchesBefore = new HashMap<>();

    /** The computations launched on a stream before generation {@code generation} of an event was recorded there. */
    private record Launches(long generation, List<Long> ids) {
    }

    WorkerCommands(Transport transport, Backend local, ObjectTable objects, EventGenerations events,
                   LocalService service, LongFunction<String> threadName) {
        this.transport = transport;
        this.local = local;
        this.clock = RankClock.of(local);
        this.objects = objects;
        this.service = service;
        this.events = events;
        this.threadName = threadName;
    }

    void run(int source, Op op, WireReader m) {
        if (op == Op.BATCH) {
            while (m.hasMore()) {
                Op command = m.getOp();
                try {
                    command(command, m);
                } catch (RuntimeException e) {
                    fail(e);
                    return; // the rest of the batch cannot be decoded past a command that failed to
                }
            }
            return;
        }
        long id = m.getLong();
        WireWriter payload = new WireWriter();
        String text = "";
        try {
            call(op, m, payload);
        } catch (RuntimeException e) {
            text = String.valueOf(e.getMessage());
        }
        String earlier = failure.getAndSet("");
        transport.reply(source, id, earlier.isEmpty() ? text : text.isEmpty() ? earlier : earlier + "; " + text,
                payload);
    }

    private void fail(RuntimeException e) {
        failure.compareAndSet("", String.valueOf(e.getMessage()));
    }

    private void command(Op op, WireReader m) {
        switch (op) {
            case STREAM_CREATE -> {
                long key = m.getLong();
                objects.put(key, local.createStream(m.getInt()));
                queues.put(key, new StreamQueue(threadName.apply(key), this::fail));
            }
            case STREAM_DESTROY -> {
                long key = m.getLong();
                launchedSince.remove(key);
                StreamQueue q = target(key).q();
                queues.remove(key);
                q.submit(() -> local.destroyStream(objects.remove(key, StreamHandle.class)));
                q.finish();
                ending.add(q);
            }
            case EVENT_CREATE -> {
                long key = m.getLong();
                events.create(key, m.getInt());
            }
            case EVENT_DESTROY -> {
                long key = m.getLong();
                launchesBefore.remove(key);
                awaitIdle();
                events.destroy(key);
            }
            case RECORD -> {
                long event = m.getLong();
                long streamKey = m.getLong();
                Target t = target(streamKey);
                long generation = m.getLong();
                List<Long> launched = launchedSince.remove(streamKey);
                launchesBefore.put(event, new Launches(generation, launched == null ? List.of() : launched));
                t.q().submit(() -> events.record(event, generation, t.s()));
            }
            case WAIT -> waitFor(target(m.getLong()), m.getInt(), m.getLong(), m.getLong());
            case LAUNCH -> {
                FunctionHandle f = objects.get(m.getLong(), FunctionHandle.class);
                long streamKey = m.getLong();
                Target t = target(streamKey);
                LaunchConfig config = Codec.readConfig(m);
                Object[] arguments = Codec.readArguments(m, objects);
                OperationLabel label = Codec.readLabel(m);
                ReadOnlyParameters readOnly = Codec.readReadOnly(m);
                if (label.computationId() >= 0) {
                    launchedSince.computeIfAbsent(streamKey, k -> new ArrayList<>()).add(label.computationId());
                }
                t.q().submit(() -> local.launch(f, config, arguments, t.s(), label, readOnly));
            }
            case LAUNCH_LIBRARY -> {
                String name = m.getString();
                LibraryRoutine routine = BlasFunctions.named(name).orElseThrow(() -> new BackendException(
                        "no library routine is called " + name));
                long streamKey = m.getLong();
                Target t = target(streamKey);
                Object[] arguments = Codec.readArguments(m, objects);
                OperationLabel label = Codec.readLabel(m);
                if (label.computationId() >= 0) {
                    launchedSince.computeIfAbsent(streamKey, k -> new ArrayList<>()).add(label.computationId());
                }
                t.q().submit(() -> local.launchLibrary(routine, arguments, t.s(), label));
            }
            case COPY_FROM_HOST -> {
                Target t = target(m.getLong());
                DeviceBuffer dst = objects.get(m.getLong(), DeviceBuffer.class);
                long offset = m.getLong();
                long bytes = m.getLong();
                long key = m.getLong();
                boolean direct = m.getBoolean();
                OperationLabel label = Codec.readLabel(m);
                t.q().submit(() -> pull(0, Op.PULL_HOST, w -> w.putLong(key), dst, offset, bytes, t.s(), label,
                        direct));
            }
            case COPY_TO_HOST -> {
                Target t = target(m.getLong());
                DeviceBuffer src = objects.get(m.getLong(), DeviceBuffer.class);
                long offset = m.getLong();
                long bytes = m.getLong();
                int tag = m.getInt();
                boolean direct = m.getBoolean();
                OperationLabel label = Codec.readLabel(m);
                // On a virtual clock the stream goes on once the bytes have landed on rank 0, as rank 0's events do.
                t.q().submit(() -> clock.holdForData(t.s(), service.sendDevice(0, tag, src, offset, bytes, t.s(),
                        label, direct), bytes));
            }
            case COPY_LOCAL, COPY_FROM_RANK -> {
                Target t = target(m.getLong());
                int rank = m.getInt();
                long srcKey = m.getLong();
                DeviceBuffer dst = objects.get(m.getLong(), DeviceBuffer.class);
                long bytes = m.getLong();
                boolean direct = m.getBoolean();
                OperationLabel label = Codec.readLabel(m);
                if (op == Op.COPY_LOCAL) {
                    DeviceBuffer src = objects.get(srcKey, DeviceBuffer.class);
                    t.q().submit(() -> local.copyDeviceToDevice(src, dst, bytes, t.s(), label));
                } else {
                    t.q().submit(() -> pull(rank, Op.PULL_BUFFER, w -> w.putLong(srcKey).putLong(0).putLong(bytes)
                            .putBoolean(direct), dst, 0, bytes, t.s(), label, direct));
                }
            }
            case TIMELINE_RECORD -> local.recordTimeline(m.getBoolean());
            default -> throw new BackendException("a batch cannot hold " + op);
        }
    }

    /** A stream and its queue. */
    private record Target(StreamQueue q, StreamHandle s) {
    }

    private Target target(long key) {
        StreamQueue q = queues.get(key);
        if (q == null) {
            throw new BackendException("no stream with key " + key + " on this rank");
        }
        return new Target(q, objects.get(key, StreamHandle.class));
    }

    private void waitFor(Target t, int rank, long event, long generation) {
        if (rank == transport.rank()) {
            t.q().submit(() -> events.streamWait(event, generation, t.s()));
        } else {
            // On a virtual clock the stream goes on no earlier than the answer, sent when the record completed there.
            t.q().submit(() -> clock.holdForMessage(t.s(), transport.call(rank, Op.SYNC_EVENT,
                    w -> w.putLong(event).putLong(generation)).getLong(), 0));
        }
    }

    /**
     * Receives bytes {@code rank} sends when asked with {@code op}: straight into device memory when {@code direct},
     * else into pinned host memory ({@link StagedCopies}); on a virtual clock the bytes hold {@code s} until they have
     * crossed the network.
     */
    private void pull(int rank, Op op, Consumer<WireWriter> request, DeviceBuffer dst, long dstOffset, long bytes,
                      StreamHandle s, OperationLabel label, boolean direct) {
        if (direct) {
            WireReader reply = DirectCopies.receive(transport, local, clock, rank, op, request, dst, dstOffset, bytes,
                    s);
            clock.holdForData(s, RankClock.readTimes(reply), bytes);
            return;
        }
        MemorySegment pinned = service.staging().take(bytes);
        StagedCopies.receive(transport, local, clock, rank, op, request, pinned.asSlice(0, bytes), dst, dstOffset, s,
                label);
        clock.drain(s);
        service.staging().give(pinned);
    }

    private void call(Op op, WireReader m, WireWriter out) {
        switch (op) {
            case ALLOCATE -> {
                long key = m.getLong();
                objects.put(key, local.allocate(m.getInt(), m.getLong()));
            }
            case FREE -> {
                long key = m.getLong();
                awaitIdle();
                local.free(objects.remove(key, DeviceBuffer.class));
            }
            case FREE_MEMORY -> out.putLong(local.freeMemory(m.getInt()));
            case LOAD_MODULE -> {
                long key = m.getLong();
                int device = m.getInt();
                long imageKey = m.getLong();
                if (m.getBoolean()) {
                    images.put(imageKey, Codec.readImage(m));
                }
                objects.put(key, local.loadModule(device, images.get(imageKey)));
            }
            case FUNCTION -> {
                long key = m.getLong();
                ModuleHandle module = objects.get(m.getLong(), ModuleHandle.class);
                objects.put(key, local.function(module, m.getString()));
            }
            case PTX -> {
                Optional<String> ptx = local.ptx(objects.get(m.getLong(), ModuleHandle.class));
                out.putBoolean(ptx.isPresent());
                ptx.ifPresent(out::putString);
            }
            case WRITE_SYMBOL -> {
                ModuleHandle module = objects.get(m.getLong(), ModuleHandle.class);
                String symbol = m.getString();
                long offset = m.getLong();
                byte[] bytes = m.getBytes();
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment src = arena.allocate(Math.max(1, bytes.length)).asSlice(0, bytes.length);
                    MemorySegment.copy(bytes, 0, src, ValueLayout.JAVA_BYTE, 0, bytes.length);
                    local.writeSymbol(module, symbol, offset, src);
                }
            }
            case QUERY -> {
                long event = m.getLong();
                long generation = m.getLong();
                boolean done = events.query(event, generation);
                out.putBoolean(done);
                if (done) {
                    reportFaults(event, generation, out);
                }
            }
            case ELAPSED -> out.putDouble(events.elapsedMillis(m.getLong(), m.getLong()));
            case TAKE_FAULT -> {
                Optional<BackendException> fault = local.takeFault(m.getLong());
                out.putBoolean(fault.isPresent());
                fault.ifPresent(f -> out.putString(String.valueOf(f.getMessage())));
            }
            case TIMELINE -> {
                List<TimedOperation> timeline = local.timeline();
                out.putInt(timeline.size());
                timeline.forEach(o -> Codec.writeOperation(out, o));
            }
            case SYNC_ALL -> {
                awaitIdle();
                local.synchronizeAll();
                out.putLong(clock.isVirtual() ? local.hostNanos() : RankClock.NONE); // all its work has ended by then
            }
            case CLOSE -> close();
            default -> throw new BackendException("rank 0 cannot call " + op);
        }
    }

    /**
     * Writes the outcome of the launches before a completed record, which rank 0 would otherwise ask for one call
     * each: their count, then each computation's id and its fault (or none). Those before older records are asked.
     */
    private void reportFaults(long event, long generation, WireWriter out) {
        Launches before = launchesBefore.get(event);
        List<Long> ids = before != null && before.generation() == generation ? before.ids() : List.of();
        launchesBefore.remove(event);
        out.putInt(ids.size());
        for (long id : ids) {
            Optional<BackendException> fault = local.takeFault(id);
            out.putLong(id).putBoolean(fault.isPresent());
            fault.ifPresent(f -> out.putString(String.valueOf(f.getMessage())));
        }
    }

    private void awaitIdle() {
        queues.values().forEach(StreamQueue::awaitIdle);
        ending.forEach(StreamQueue::awaitIdle);
        ending.clear();
    }

    /** Waits for the queues, ends them, and closes the backend. */
    @Override
    public void close() {
        awaitIdle();
        queues.values().forEach(StreamQueue::finish);
        queues.clear();
        service.releaseStreams();
        events.clear();
        local.close();
        objects.clear();
    }
}
