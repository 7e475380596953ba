package org.polygpu.bench.study;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.polygpu.array.Access;
import org.polygpu.topology.BandwidthMatrix;

/**
 * A lower bound on the makespan of a program on {@code G} GPUs, from what it asked for and how long its kernels
 * took: the largest of
 * <ul>
 *   <li>the <b>critical path with every transfer free</b>: the longest chain of kernels through the program's own
 *       data dependencies (a computation after the last one that wrote an array it uses, and a writer after every
 *       reader since that write), host accesses and copies taking no time, each kernel as long as it would take
 *       alone on its device (the trace's {@code alone}: launch latency plus execution alone);</li>
 *   <li>the <b>total kernel time / G</b>: the device time the kernels consumed (the trace's {@code work}: each
 *       kernel's execution alone times the fraction of the device its grid could use), which the G devices can
 *       provide at most G nanoseconds per nanosecond, however the kernels are placed and overlapped;</li>
 *   <li>the <b>host-link time</b>: the bytes that must cross between host and GPUs at least once (every array that
 *       a kernel reads after the host wrote it, host to device; every array the host reads after a kernel wrote it,
 *       device to host) over the sum of the G GPUs' host links in that direction (the emulator's links are
 *       independent of one another), the slower direction;</li>
 *   <li>the <b>host's issue time</b>: the program's host issues its kernels one after another, each launch at
 *       least one call of the backend that costs the host {@code hostCallNanos} (the device model's
 *       {@code launch.hostNs}), so the k-th kernel starts no earlier than {@code k * hostCallNanos} and ends no
 *       earlier than that plus its time alone; the latest such end. Copies and waits cost the host calls too, which
 *       this term leaves out: it only counts what every schedule of the same kernels pays.</li>
 * </ul>
 * All four are in nanoseconds of the virtual clock, and each holds for any schedule of the same computations on the
 * emulator, whose devices share their execution resources among concurrent kernels by occupancy.
 *
 * @param criticalPathNanos   the longest chain of kernels, transfers free
 * @param totalKernelNanos    the device time every kernel consumed, summed
 * @param gpus                G
 * @param hostToDeviceBytes   bytes that must go from the host to some GPU
 * @param deviceToHostBytes   bytes that must come back to the host
 * @param hostLinkNanos       the host-link time of those bytes
 * @param hostIssueNanos      the latest end of a kernel issued after the host's calls for it and all before it
 */
record DataflowBound(long criticalPathNanos, long totalKernelNanos, int gpus, long hostToDeviceBytes,
                     long deviceToHostBytes, double hostLinkNanos, double hostIssueNanos) {
    /** Who last wrote an array, and who read it since. */
    private static final class ArrayState {
        long lastWriter = -1;
        boolean hostWrote;
        boolean kernelWrote;
        boolean sentSinceHostWrite;
        final List<Long> readersSinceWrite = new ArrayList<>();
    }

    /**
     * The bound of {@code graph}, whose kernels ran as long as {@code timeline} says, on the first {@code gpus} GPUs
     * of {@code bandwidth}, each backend call costing the host {@code hostCallNanos}.
     */
    static DataflowBound of(ScheduleGraph graph, TraceTimeline timeline, int gpus, BandwidthMatrix bandwidth,
                            double hostCallNanos) {
        Map<Long, ArrayState> arrays = new HashMap<>();
        Map<Long, Long> finish = new HashMap<>();
        long longest = 0;
        long toDevice = 0;
        long toHost = 0;
        long kernels = 0;
        double issued = 0;
        for (ScheduleGraph.Computation c : graph.computations()) {
            long start = 0;
            for (ScheduleGraph.Argument a : c.arguments()) {
                ArrayState s = arrays.computeIfAbsent(a.array(), k -> new ArrayState());
                start = Math.max(start, finish.getOrDefault(s.lastWriter, 0L));
                if (a.access() != Access.READ) {
                    for (long reader : s.readersSinceWrite) {
                        start = Math.max(start, finish.getOrDefault(reader, 0L));
                    }
                }
            }
            long alone = c.kind() == ScheduleGraph.Kind.KERNEL ? timeline.kernelNanos().getOrDefault(c.id(), 0L) : 0;
            long end = start + alone;
            if (c.kind() == ScheduleGraph.Kind.KERNEL) {
                kernels++;
                issued = Math.max(issued, kernels * hostCallNanos + alone);
            }
            finish.put(c.id(), end);
            longest = Math.max(longest, end);
            for (ScheduleGraph.Argument a : c.arguments()) {
                ArrayState s = arrays.get(a.array());
                boolean reads = a.access() != Access.WRITE;
                boolean host = c.kind() == ScheduleGraph.Kind.HOST;
                if (reads && c.kind() == ScheduleGraph.Kind.KERNEL && s.hostWrote && !s.sentSinceHostWrite) {
                    toDevice += a.bytes();
                    s.sentSinceHostWrite = true;
                }
                if (reads && host && s.kernelWrote) {
                    toHost += a.bytes();
                    s.kernelWrote = false;
                }
                if (a.access() == Access.READ) {
                    s.readersSinceWrite.add(c.id());
                } else if (c.kind() != ScheduleGraph.Kind.FREE) {
                    s.lastWriter = c.id();
                    s.readersSinceWrite.clear();
                    s.hostWrote = host;
                    s.kernelWrote = !host;
                    s.sentSinceHostWrite = false;
                }
            }
        }
        double toDeviceRate = 0;
        double toHostRate = 0;
        int hostIndex = bandwidth.hostIndex();
        for (int g = 0; g < gpus; g++) {
            toDeviceRate += bandwidth.bandwidth(hostIndex, g);
            toHostRate += bandwidth.bandwidth(g, hostIndex);
        }
        double hostLink = Math.max(toDevice / toDeviceRate, toHost / toHostRate);
        return new DataflowBound(longest, timeline.totalKernelNanos(), gpus, toDevice, toHost, hostLink, issued);
    }

    /** The largest of the four terms, ns. */
    double nanos() {
        return Math.max(Math.max(criticalPathNanos, totalKernelNanos / (double) gpus),
                Math.max(hostLinkNanos, hostIssueNanos));
    }
}
