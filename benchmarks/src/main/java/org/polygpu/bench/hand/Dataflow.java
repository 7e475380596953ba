package org.polygpu.bench.hand;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.TimedOperation;

/**
 * The data dependencies of a hand-written program, buffer by buffer: an operation depends on the last one that wrote
 * a buffer it reads, and on the last writer and the readers since of a buffer it writes (streams and events, which
 * only enforce these, play no part). Operations are numbered in issue order from 0; the number is the computation id
 * of the operation's label, which is how the timeline's kernels are matched to them.
 */
final class Dataflow {
    /** Who last wrote a buffer and who read it since. */
    private static final class Access {
        int writer = -1;
        final List<Integer> readers = new ArrayList<>();
    }

    private final Map<DeviceBuffer, Access> buffers = new IdentityHashMap<>();
    private final List<int[]> predecessors = new ArrayList<>();

    /** Adds the next operation, which reads {@code reads} and writes {@code writes}; returns its number. */
    int add(List<DeviceBuffer> reads, List<DeviceBuffer> writes) {
        int node = predecessors.size();
        List<Integer> before = new ArrayList<>();
        for (DeviceBuffer r : reads) {
            Access a = buffers.get(r);
            if (a != null && a.writer >= 0) {
                before.add(a.writer);
            }
        }
        for (DeviceBuffer w : writes) {
            Access a = buffers.get(w);
            if (a != null) {
                if (a.writer >= 0) {
                    before.add(a.writer);
                }
                before.addAll(a.readers);
            }
        }
        predecessors.add(before.stream().mapToInt(Integer::intValue).distinct().toArray());
        for (DeviceBuffer r : reads) {
            buffers.computeIfAbsent(r, k -> new Access()).readers.add(node);
        }
        for (DeviceBuffer w : writes) {
            Access a = buffers.computeIfAbsent(w, k -> new Access());
            a.writer = node;
            a.readers.clear();
        }
        return node;
    }

    /**
     * The longest chain of operations, each kernel lasting what it would alone on its device
     * ({@link TimedOperation#aloneNanos()}, matched by the computation id of its label) and every copy nothing, in µs.
     */
    double criticalPathMicros(List<TimedOperation> timeline) {
        Map<Long, Long> kernelNanos = new HashMap<>();
        for (TimedOperation op : timeline) {
            if (op.kind() == TimedOperation.Kind.KERNEL) {
                kernelNanos.merge(op.label().computationId(), op.aloneNanos(), Long::sum);
            }
        }
        long[] finish = new long[predecessors.size()];
        long longest = 0;
        for (int node = 0; node < finish.length; node++) {
            long start = 0;
            for (int p : predecessors.get(node)) {
                start = Math.max(start, finish[p]);
            }
            finish[node] = start + kernelNanos.getOrDefault((long) node, 0L);
            longest = Math.max(longest, finish[node]);
        }
        return longest / 1e3;
    }
}
