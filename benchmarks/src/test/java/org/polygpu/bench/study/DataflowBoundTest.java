package org.polygpu.bench.study;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.topology.BandwidthMatrix;

/** The four terms of the study's lower bound on small schedules whose answer is known by hand. */
class DataflowBoundTest {
    /** Two GPUs at 10 bytes/ns to and from the host (the host is the last index). */
    private static final BandwidthMatrix LINKS = new BandwidthMatrix(new double[][] {
        {100, 100, 10}, {100, 100, 10}, {10, 10, 0}});

    private static ScheduleGraph.Computation kernel(long id, long array, Access access) {
        return new ScheduleGraph.Computation(id, ScheduleGraph.Kind.KERNEL, "k" + id,
                List.of(new ScheduleGraph.Argument(array, 1000, access)));
    }

    /** Four independent kernels of 100 ns: the critical path is 100, the kernel time 400 / 2 GPUs = 200. */
    @Test
    void independentKernelsAreBoundByTheirTotalTimeOrTheHostsIssueRate() {
        ScheduleGraph graph = new ScheduleGraph(List.of(kernel(1, 10, Access.WRITE), kernel(2, 11, Access.WRITE),
                kernel(3, 12, Access.WRITE), kernel(4, 13, Access.WRITE)));
        TraceTimeline timeline = new TraceTimeline(0, 0, 0, 0, Map.of(1L, 100L, 2L, 100L, 3L, 100L, 4L, 100L), 400);
        DataflowBound noHost = DataflowBound.of(graph, timeline, 2, LINKS, 0);
        assertEquals(100, noHost.criticalPathNanos());
        assertEquals(200, noHost.nanos());
        assertEquals(100, noHost.hostIssueNanos(), "without host cost: the longest kernel");
        DataflowBound slowHost = DataflowBound.of(graph, timeline, 2, LINKS, 150);
        assertEquals(4 * 150 + 100, slowHost.hostIssueNanos(), "the fourth kernel issued after 4 calls");
        assertEquals(700, slowHost.nanos());
    }

    /** A chain through one array: each kernel after the one before; the host's calls overlap the first kernels. */
    @Test
    void aChainIsBoundByItsCriticalPath() {
        ScheduleGraph graph = new ScheduleGraph(List.of(kernel(1, 10, Access.READ_WRITE),
                kernel(2, 10, Access.READ_WRITE), kernel(3, 10, Access.READ_WRITE)));
        TraceTimeline timeline = new TraceTimeline(0, 0, 0, 0, Map.of(1L, 300L, 2L, 300L, 3L, 300L), 900);
        DataflowBound b = DataflowBound.of(graph, timeline, 2, LINKS, 50);
        assertEquals(900, b.criticalPathNanos());
        assertEquals(3 * 50 + 300, b.hostIssueNanos());
        assertEquals(900, b.nanos());
    }
}
