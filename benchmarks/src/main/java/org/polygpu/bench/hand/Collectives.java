package org.polygpu.bench.hand;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.StreamHandle;

/**
 * Work that crosses GPUs in the hand-written CG, all of it on one stream per GPU (its <em>exchange stream</em>), so
 * that stream order replaces most events: the emulator charges the host for every call, event records and waits
 * included, as CUDA does. Two operations: the sum of one-element partial results into a total on every GPU, and the
 * broadcast of a buffer from one GPU to the others.
 */
final class Collectives {
    private static final LaunchConfig ONE_THREAD = LaunchConfig.of(1, 1);

    private final HandSetup setup;
    private final Backend b;
    private final List<StreamHandle> streams = new ArrayList<>();
    /** Per GPU: the sum of its partitions' parts (GPU 0 adds into the total instead), and what it receives. */
    private final List<DeviceBuffer> partial = new ArrayList<>();
    private final List<DeviceBuffer> received = new ArrayList<>();

    /** Exchange streams and buffers on GPUs 0 to {@code gpus - 1}. */
    Collectives(HandSetup setup, int gpus) {
        this.setup = setup;
        this.b = setup.backend;
        for (int d = 0; d < gpus; d++) {
            streams.add(b.createStream(d));
            partial.add(b.allocate(d, Float.BYTES));
            received.add(b.allocate(d, Float.BYTES));
        }
    }

    /** GPU {@code device}'s exchange stream. */
    StreamHandle stream(int device) {
        return streams.get(device);
    }

    /**
     * Adds the one-element {@code parts} (partition q's on GPU {@code deviceOf[q]}, written before {@code written[q]})
     * into {@code totals}' element, on every GPU the same float. Each GPU first adds its own partitions' parts in
     * partition order (GPU 0 straight into its total); then, in a tree of log2(G) rounds, GPU d receives the partial
     * sum of GPU d + s and adds it to its own (s = 1, 2, 4, ...), so that GPU 0 ends with the total; then GPU 0
     * sends it to every other GPU, each over its own link. Returns, by GPU, an event after its total arrived.
     */
    List<EventHandle> sum(List<DeviceBuffer> parts, int[] deviceOf, List<EventHandle> written,
                          List<DeviceBuffer> totals) {
        int gpus = streams.size();
        List<DeviceBuffer> target = new ArrayList<>(partial);
        target.set(0, totals.get(0));
        boolean[] first = new boolean[gpus];
        Arrays.fill(first, true);
        for (int q = 0; q < parts.size(); q++) {
            int d = deviceOf[q];
            b.streamWaitEvent(streams.get(d), written.get(q));
            setup.launch(d, "accumulate", ONE_THREAD, streams.get(d), parts.get(q), target.get(d), first[d] ? 1 : 0);
            first[d] = false;
        }
        for (int s = 1; s < gpus; s *= 2) {
            for (int d = 0; d + s < gpus; d += 2 * s) {
                StreamHandle stream = streams.get(d);
                b.streamWaitEvent(stream, record(d + s));
                setup.copyPeer(target.get(d + s), received.get(d), stream, "partial sum");
                setup.launch(d, "accumulate", ONE_THREAD, stream, received.get(d), target.get(d), 0);
            }
        }
        return broadcast(0, totals, "total");
    }

    /**
     * Copies {@code buffers.get(root)} into every other GPU's buffer of {@code buffers}, each copy on its destination's
     * exchange stream after the root's work so far. Returns, by GPU, an event after its copy is there.
     */
    List<EventHandle> broadcast(int root, List<DeviceBuffer> buffers, String name) {
        EventHandle sent = record(root);
        List<EventHandle> ready = new ArrayList<>();
        for (int d = 0; d < streams.size(); d++) {
            if (d != root) {
                b.streamWaitEvent(streams.get(d), sent);
                setup.copyPeer(buffers.get(root), buffers.get(d), streams.get(d), name);
            }
            ready.add(d == root ? sent : record(d));
        }
        return ready;
    }

    /** An event after the work enqueued so far on GPU {@code device}'s exchange stream. */
    EventHandle record(int device) {
        return record(b, device, streams.get(device));
    }

    static EventHandle record(Backend b, int device, StreamHandle stream) {
        EventHandle e = b.createEvent(device);
        b.recordEvent(e, stream);
        return e;
    }
}
