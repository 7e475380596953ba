package org.polygpu.cluster;

import java.util.Locale;

import org.polygpu.backend.Backend;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.VirtualTimeline;
import org.polygpu.topology.NetworkLink;

/**
 * A rank's clock as its messages to other ranks see it. On a virtual clock (emulated devices, whose backend offers
 * {@link VirtualTimeline}) every rank keeps its own deterministic virtual time, starting at 0 with the job; a message
 * carries the virtual time at which what it says became true on its sender (an event's record completed, a buffer's
 * bytes were ready to leave), and its receiver holds the stream that depends on it until that time plus the message's
 * time on the network: {@code latency + bytes / bandwidth} of the receiving rank's NIC ({@link #network}). So each
 * rank's timeline, and the job's makespan, count the network, as conservative parallel discrete-event simulation
 * does. On a real clock nothing is carried ({@link #NONE}) and nothing is held: real streams wait in real time.
 *
 * <p>Thread-safe as its backend is (the cluster's backends are {@link LockedBackend}s).
 */
final class RankClock {
    /** The time a message carries from a rank on a real clock: none. */
    static final long NONE = -1;

    private final Backend backend;
    private final VirtualTimeline timeline;
    private final NetworkLink network;

    private RankClock(Backend backend, VirtualTimeline timeline, NetworkLink network) {
        this.backend = backend;
        this.timeline = timeline;
        this.network = network;
    }

    /** The clock of {@code backend}: virtual when it (or the backend a {@link LockedBackend} wraps) offers one. */
    static RankClock of(Backend backend) {
        VirtualTimeline t = backend instanceof LockedBackend l ? l.virtualTimeline()
                : backend instanceof VirtualTimeline v ? v : null;
        if (t == null) {
            return new RankClock(backend, null, null);
        }
        return new RankClock(backend, t, network(backend.deviceCount() == 0 ? ""
                : backend.deviceProperties(0).name()));
    }

    /**
     * The NIC of an emulated rank: that of the DGX system its device model ships in ({@link NetworkLink#forNodePreset}:
     * NDR for H100, HDR for A100, EDR for V100 and any other model), the figures the in-process cluster simulation
     * uses. One transfer at a time: the NIC's sharing between GPUs and between concurrent transfers is not modelled.
     */
    static NetworkLink network(String deviceName) {
        String name = deviceName.toUpperCase(Locale.ROOT);
        return NetworkLink.forNodePreset(name.contains("H100") ? "h100x8" : name.contains("A100") ? "a100x8"
                : "v100x8");
    }

    boolean isVirtual() {
        return timeline != null;
    }

    /** The receiving NIC of this rank's messages; {@code null} on a real clock. */
    NetworkLink network() {
        return network;
    }

    /**
     * Waits on the host until the work enqueued on {@code stream} so far has completed; on a virtual clock, returns the
     * virtual time it completed at, else {@link #NONE}.
     */
    long drain(StreamHandle stream) {
        EventHandle done = backend.createEvent(stream.device());
        try {
            backend.recordEvent(done, stream);
            return completedAt(done);
        } finally {
            backend.destroyEvent(done);
        }
    }

    /** Waits on the host for {@code event}; on a virtual clock, returns when it completed, else {@link #NONE}. */
    long completedAt(EventHandle event) {
        if (timeline == null) {
            backend.synchronizeEvent(event);
            return NONE;
        }
        return timeline.completedAt(event);
    }

    /** On a virtual clock, the time at which the work on {@code stream} so far ends, waiting for it; else NONE. */
    long streamTime(StreamHandle stream) {
        return timeline == null ? NONE : drain(stream);
    }

    /**
     * Holds {@code stream} until a message sent at {@code sentNanos} with {@code bytes} of data has arrived here
     * ({@link #arrival}); nothing on a real clock or for a message that carried no time.
     */
    void holdForMessage(StreamHandle stream, long sentNanos, long bytes) {
        if (timeline != null && sentNanos != NONE) {
            timeline.holdUntil(stream, arrival(sentNanos, bytes, network));
        }
    }

    /**
     * Holds this rank's host until a message without data, sent at {@code sentNanos}, has arrived: what it enqueues
     * afterwards starts no earlier. Nothing on a real clock or for a message that carried no time.
     */
    void holdHostForMessage(long sentNanos) {
        if (timeline != null && sentNanos != NONE) {
            timeline.holdHostUntil(arrival(sentNanos, 0, network));
        }
    }

    /** Holds {@code stream} until virtual time {@code nanos}; nothing on a real clock or for {@link #NONE}. */
    void holdUntil(StreamHandle stream, long nanos) {
        if (timeline != null && nanos != NONE) {
            timeline.holdUntil(stream, nanos);
        }
    }

    /**
     * When each chunk of {@code bytes} ({@code chunkBytes} each, the last one partial) has arrived through
     * {@code link}, the chunks having been ready to leave at {@code ready} (one time per chunk, or one for all): each
     * leaves once it is ready and the NIC has sent the chunks before it, takes {@code chunk / bandwidth} on the NIC,
     * and arrives {@code latency} later. So a copy staged in chunks overlaps its network time with the copies to and
     * from the hosts, and one chunk ready at {@code t} arrives at {@link #arrival}{@code (t, chunk)}.
     */
    static long[] arrivals(long[] ready, long bytes, long chunkBytes, NetworkLink link) {
        int chunks = (int) ((bytes + chunkBytes - 1) / chunkBytes);
        if (ready.length != 1 && ready.length != chunks) {
            throw new IllegalArgumentException(ready.length + " ready times for " + chunks + " chunks");
        }
        long[] arrived = new long[chunks];
        long nicFree = 0;
        for (int i = 0; i < chunks; i++) {
            long length = Math.min(chunkBytes, bytes - (long) i * chunkBytes);
            nicFree = Math.max(nicFree, ready[ready.length == 1 ? 0 : i]) + onTheWire(length, link);
            arrived[i] = nicFree + link.latencyNanos();
        }
        return arrived;
    }

    /** Writes the ready times of a message's chunks (one for all of them, or one each). */
    static void writeTimes(WireWriter w, long[] ready) {
        w.putInt(ready.length);
        for (long t : ready) {
            w.putLong(t);
        }
    }

    /** Reads what {@link #writeTimes} wrote. */
    static long[] readTimes(WireReader r) {
        long[] ready = new long[r.getInt()];
        for (int i = 0; i < ready.length; i++) {
            ready[i] = r.getLong();
        }
        return ready;
    }

    /**
     * Holds {@code stream} until all {@code bytes}, ready at {@code ready} on their rank, have arrived here in the
     * transport's chunks ({@link #arrivals}); nothing on a real clock or when the sender's clock is real.
     */
    void holdForData(StreamHandle stream, long[] ready, long bytes) {
        if (timeline != null && ready.length > 0 && ready[0] != NONE && bytes > 0) {
            long[] arrived = arrivals(ready, bytes, Transport.CHUNK_BYTES, network);
            timeline.holdUntil(stream, arrived[arrived.length - 1]);
        }
    }

    /**
     * When a message sent at {@code sentNanos} with {@code bytes} of data has arrived through {@code link}:
     * {@code sentNanos + latency + bytes / bandwidth}, rounded up to a whole nanosecond.
     */
    static long arrival(long sentNanos, long bytes, NetworkLink link) {
        if (sentNanos < 0 || bytes < 0) {
            throw new IllegalArgumentException("a message is sent at a time >= 0 with bytes >= 0, got " + sentNanos
                    + " ns and " + bytes + " bytes");
        }
        return sentNanos + link.latencyNanos() + onTheWire(bytes, link);
    }

    /** How long {@code bytes} take on {@code link}'s NIC, rounded up to a whole nanosecond. */
    private static long onTheWire(long bytes, NetworkLink link) {
        return (long) Math.ceil(bytes / link.gigabytesPerSecond());
    }
}
