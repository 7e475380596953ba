package org.polygpu.cluster;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import org.polygpu.backend.BackendException;
import org.polygpu.mpi.Mpi;
import org.polygpu.mpi.MpiException;
import org.polygpu.mpi.MpiRequest;
import org.polygpu.mpi.MpiStatus;

/**
 * One process's messages to the others over MPI: control messages on tag {@value #CONTROL}, received by one thread
 * that answers liveness probes, hands replies to their callers and every other message to a {@link Handler}; calls
 * (a request and its {@link Op#REPLY}); bulk data in chunks of {@value #CHUNK_BYTES} bytes on tags of their own,
 * which the receiving side allocates ({@link #nextTag()}) and pre-posts.
 *
 * <p>Failure detection: no wait on another rank is unbounded. Every wait polls (non-blocking sends, receives and
 * probes) and fails with a {@link BackendException} once nothing at all has been heard from that rank for the
 * timeout; while it waits it sends the rank a {@link Op#PING} whenever the rank has been quiet for a third of the
 * timeout, which the rank's receiver thread answers at once, so a long wait on a live rank never fails.
 *
 * <p>Thread-safety: every method may be called from any thread (MPI is initialised with MPI_THREAD_MULTIPLE); an
 * {@link MpiRequest} is only ever tested by the thread that started it.
 */
final class Transport implements AutoCloseable {
    /** The tag of control messages. */
    static final int CONTROL = 1;
    /** Bytes per data message: large enough that per-message costs vanish, small enough to pipeline copies. */
    static final int CHUNK_BYTES = 4 << 20;
    private static final int FIRST_DATA_TAG = 64;
    /**
     * Longest park of an idle poll: bounds the latency a sleeping poller adds (a batch of commands amortises it),
     * while an idle rank's receiver costs a few percent of a core.
     */
    private static final long MAX_PARK_NANOS = 500_000;

    /** Takes the control messages that are not the transport's own, on the receiver thread: must not block. */
    interface Handler {
        void handle(int source, Op op, WireReader message);
    }

    private final Mpi mpi;
    private final long timeoutNanos;
    private final AtomicLongArray lastHeard;
    private final AtomicLongArray lastPinged;
    private final Map<Long, CompletableFuture<WireReader>> calls = new ConcurrentHashMap<>();
    private final AtomicLong nextCall = new AtomicLong();
    private final AtomicInteger nextTag = new AtomicInteger();
    private final Thread receiver;
    /** Null until {@link #handler(Handler)}: the messages that arrive before wait in {@link #early}. */
    private Handler handler;
    /** Messages that arrived before a handler was set; guarded by this. */
    private final List<Runnable> early = new ArrayList<>();
    private volatile boolean running = true;
    private volatile boolean answering = true;
    private volatile Runnable onSilence = () -> { };

    Transport(Mpi mpi, Duration timeout) {
        this.mpi = mpi;
        this.timeoutNanos = timeout.toNanos();
        this.lastHeard = new AtomicLongArray(mpi.size());
        this.lastPinged = new AtomicLongArray(mpi.size());
        long now = System.nanoTime();
        for (int r = 0; r < mpi.size(); r++) {
            lastHeard.set(r, now);
        }
        receiver = Thread.ofPlatform().daemon().name("polygpu-mpi-receiver").start(this::receive);
    }

    int rank() {
        return mpi.rank();
    }

    int size() {
        return mpi.size();
    }

    Mpi mpi() {
        return mpi;
    }

    /** Sets who takes the messages that are not the transport's own; those that came before go to it first. */
    synchronized void handler(Handler value) {
        handler = value;
        early.forEach(Runnable::run);
        early.clear();
    }

    /** Runs {@code action} when a wait finds a rank silent for the timeout, before it fails. */
    void onSilence(Runnable action) {
        onSilence = action;
    }

    /** A data tag no other transfer to this process uses while this one is in flight. */
    int nextTag() {
        return FIRST_DATA_TAG + (nextTag.getAndIncrement() & 0xFFFFFF);
    }

    /** Sends a control message, waiting (bounded) until MPI has taken it. */
    void send(int rank, WireWriter message) {
        try (Arena arena = Arena.ofConfined()) {
            MpiRequest request = mpi.isend(message.toSegment(arena), rank, CONTROL);
            await(rank, () -> request.test().isPresent(), "sending a message");
        } catch (MpiException e) {
            throw failed(rank, e);
        }
    }

    /** Starts a call: {@code op}, a fresh call id, then what {@code body} writes. Its reply completes the future. */
    CompletableFuture<WireReader> callAsync(int rank, Op op, Consumer<WireWriter> body) {
        long id = nextCall.incrementAndGet();
        CompletableFuture<WireReader> reply = new CompletableFuture<>();
        calls.put(id, reply);
        WireWriter message = WireWriter.of(op).putLong(id);
        body.accept(message);
        send(rank, message);
        return reply;
    }

    /** A call and its reply, read past the answering rank's failure, which is thrown as a {@link BackendException}. */
    WireReader call(int rank, Op op, Consumer<WireWriter> body) {
        return await(rank, callAsync(rank, op, body), op.name().toLowerCase() + " on rank " + rank, timeoutNanos);
    }

    /** Waits for a reply, as long as the rank shows signs of life within the timeout. */
    WireReader await(int rank, CompletableFuture<WireReader> reply, String what) {
        return await(rank, reply, what, timeoutNanos);
    }

    /** Waits for a reply, as long as the rank shows signs of life within {@code quietNanos}. */
    WireReader await(int rank, CompletableFuture<WireReader> reply, String what, long quietNanos) {
        await(rank, reply::isDone, what, quietNanos);
        WireReader message = reply.join();
        String failure = message.getString();
        if (!failure.isEmpty()) {
            throw new BackendException("rank " + rank + ": " + failure);
        }
        return message;
    }

    /** Answers call {@code id} of {@code rank}: the failure text ("" for none), then what {@code payload} holds. */
    void reply(int rank, long id, String failure, WireWriter payload) {
        WireWriter message = WireWriter.of(Op.REPLY).putLong(id).putString(failure);
        send(rank, payload == null ? message : message.append(payload));
    }

    /** Pre-posts the receives of {@code into}'s chunks from {@code rank}, sent with {@code tag}. */
    List<MpiRequest> postReceive(int rank, int tag, MemorySegment into) {
        List<MpiRequest> requests = new ArrayList<>();
        for (long offset = 0; offset < into.byteSize(); offset += CHUNK_BYTES) {
            requests.add(mpi.irecv(into.asSlice(offset, Math.min(CHUNK_BYTES, into.byteSize() - offset)), rank,
                    tag));
        }
        return requests;
    }

    /** Waits (bounded) for pre-posted receives, calling {@code landed} with each chunk's index as it lands. */
    void awaitChunks(int rank, List<MpiRequest> requests, IntConsumer landed, String what) {
        for (int i = 0; i < requests.size(); i++) {
            MpiRequest r = requests.get(i);
            await(rank, () -> r.test().isPresent(), what, timeoutNanos, true);
            landed.accept(i);
        }
    }

    /** Sends {@code from} in chunks with {@code tag}; {@code ready} blocks until chunk {@code i}'s bytes are there. */
    void sendData(int rank, int tag, MemorySegment from, IntConsumer ready) {
        List<MpiRequest> requests = new ArrayList<>();
        int chunk = 0;
        for (long offset = 0; offset < from.byteSize(); offset += CHUNK_BYTES, chunk++) {
            ready.accept(chunk);
            requests.add(mpi.isend(from.asSlice(offset, Math.min(CHUNK_BYTES, from.byteSize() - offset)), rank,
                    tag));
        }
        for (MpiRequest r : requests) {
            await(rank, () -> r.test().isPresent(), "sending data", timeoutNanos, true);
        }
    }

    /** Waits until {@code done}, failing once {@code rank} has been silent for the timeout. */
    void await(int rank, BooleanSupplier done, String what) {
        await(rank, done, what, timeoutNanos);
    }

    private void await(int rank, BooleanSupplier done, String what, long quietNanos) {
        await(rank, done, what, quietNanos, false);
    }

    /**
     * Waits as {@link #await(int, BooleanSupplier, String)} does; with {@code moving}, for bytes in flight, it yields
     * instead of parking: MPI moves a large message only while this process polls it.
     */
    private void await(int rank, BooleanSupplier done, String what, long quietNanos, boolean moving) {
        int idle = 0;
        while (!done.getAsBoolean()) {
            if (!running) {
                throw new BackendException("the MPI job is ending: no more waiting for rank " + rank + " (" + what
                        + ")");
            }
            checkAlive(rank, what, quietNanos);
            if (moving) {
                Thread.yield();
            } else {
                idle = pause(idle);
            }
        }
    }

    /**
     * Fails once {@code rank} has been silent for {@code quietNanos}, and probes it once it has been quiet for a third
     * of the timeout: the check every wait makes as it polls, for waits that poll elsewhere.
     */
    void checkAlive(int rank, String what, long quietNanos) {
        long now = System.nanoTime();
        long quiet = now - lastHeard.get(rank);
        if (quiet > quietNanos) {
            onSilence.run();
            throw new BackendException("rank " + rank + " has not answered for " + Duration.ofNanos(quiet)
                    .toMillis() / 1000.0 + " s while " + what + " (ClusterTimeout is " + timeoutNanos
                    / 1_000_000_000.0 + " s): the rank died or stopped answering");
        }
        if (quiet > timeoutNanos / 3 && now - lastPinged.get(rank) > timeoutNanos / 3 && rank != mpi.rank()) {
            lastPinged.set(rank, now);
            ping(rank, Op.PING);
        }
    }

    /** {@link #checkAlive(int, String, long)} with the timeout. */
    void checkAlive(int rank, String what) {
        checkAlive(rank, what, timeoutNanos);
    }

    /** Stops answering anything, as a process that hangs would: only for tests of failure detection. */
    void stopAnswering() {
        answering = false;
    }

    @Override
    public void close() {
        running = false;
        try {
            receiver.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void receive() {
        int idle = 0;
        while (running) {
            if (!answering) {
                LockSupport.parkNanos(MAX_PARK_NANOS);
                continue;
            }
            Optional<MpiStatus> probed;
            byte[] bytes;
            try {
                probed = mpi.iprobe(Mpi.ANY_SOURCE, CONTROL);
                if (probed.isEmpty()) {
                    idle = pause(idle);
                    continue;
                }
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment buffer = arena.allocate(Math.max(1, probed.get().bytes()))
                            .asSlice(0, probed.get().bytes());
                    mpi.recv(buffer, probed.get().source(), CONTROL);
                    bytes = buffer.toArray(ValueLayout.JAVA_BYTE);
                }
            } catch (MpiException | IllegalStateException e) {
                if (running) {
                    throw e;
                }
                return;
            }
            idle = 0;
            int source = probed.get().source();
            lastHeard.set(source, System.nanoTime());
            dispatch(source, new WireReader(bytes));
        }
    }

    private void dispatch(int source, WireReader message) {
        Op op = message.getOp();
        switch (op) {
            case REPLY -> {
                CompletableFuture<WireReader> reply = calls.remove(message.getLong());
                if (reply != null) {
                    reply.complete(message);
                }
            }
            case PING -> ping(source, Op.PONG);
            case PONG -> { }
            default -> deliver(source, op, message);
        }
    }

    private synchronized void deliver(int source, Op op, WireReader message) {
        if (handler == null) {
            early.add(() -> handler.handle(source, op, message));
        } else {
            handler.handle(source, op, message);
        }
    }

    /** A probe or its answer: a few bytes, sent eagerly by MPI, so the blocking send returns at once. */
    private void ping(int rank, Op op) {
        try (Arena arena = Arena.ofConfined()) {
            mpi.send(WireWriter.of(op).toSegment(arena), rank, CONTROL);
        } catch (MpiException e) {
            // The rank is gone; the wait that pinged it reports that when its timeout passes.
        }
    }

    private BackendException failed(int rank, MpiException e) {
        return new BackendException("rank " + rank + " cannot be reached: " + e.getMessage());
    }

    /** Spins briefly, then parks for growing intervals, so that idle polling costs little CPU. */
    private static int pause(int idle) {
        if (idle < 8) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, 1_000L << Math.min(20, (idle - 8) / 4)));
        }
        return idle + 1;
    }
}
