package org.polygpu.dag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.config.DependencyPolicy;

/** The DAG scenarios of the paper's reference implementation, plus pruning and reduction. */
class DagTest {
    private long nextArray;

    private DeviceArray array() {
        return new DeviceArray(nextArray++, ElementType.FLOAT, new long[] {16}, 2);
    }

    private static ArrayAccess w(DeviceArray a) {
        return new ArrayAccess(a, Access.READ_WRITE);
    }

    private static ArrayAccess r(DeviceArray a) {
        return new ArrayAccess(a, Access.READ);
    }

    private static List<String> names(List<DagVertex<String>> vs) {
        return vs.stream().map(DagVertex::computation).toList();
    }

    private static List<String> parentNames(DagVertex<String> v) {
        return v.parents().stream().map(e -> e.from().computation()).toList();
    }

    @Test
    void chainWithSideBranchHasSixVerticesFiveEdgesAndFrontierCDEF() {
        for (DependencyPolicy policy : DependencyPolicy.values()) {
            Dag<String> dag = new Dag<>(policy);
            DeviceArray x1 = array();
            DeviceArray x2 = array();
            DeviceArray x3 = array();
            DeviceArray x4 = array();
            DagVertex<String> a = dag.append("A", w(x1), w(x2));
            DagVertex<String> b = dag.append("B", w(x1));
            DagVertex<String> c = dag.append("C", w(x2));
            DagVertex<String> d = dag.append("D", w(x1), w(x3));
            DagVertex<String> e = dag.append("E", w(x1), w(x4));
            DagVertex<String> f = dag.append("F", w(x4));
            assertEquals(6, dag.vertexCount(), policy.toString());
            assertEquals(5, dag.edgeCount(), policy.toString());
            assertEquals(List.of("C", "D", "E", "F"), names(dag.frontier()), policy.toString());
            assertEquals(List.of(), parentNames(a));
            assertEquals(List.of("A"), parentNames(b));
            assertEquals(List.of("A"), parentNames(c));
            assertEquals(List.of("B"), parentNames(d));
            assertEquals(List.of("D"), parentNames(e));
            assertEquals(List.of("E"), parentNames(f));
        }
    }

    @Test
    void withConstReadersForkAndALaterWriterJoinsThemWithoutTheRedundantEdge() {
        Dag<String> dag = new Dag<>(DependencyPolicy.WITH_CONST);
        DeviceArray x = array();
        dag.append("A", w(x));
        DagVertex<String> b = dag.append("B", r(x));
        DagVertex<String> c = dag.append("C", r(x));
        assertEquals(2, dag.edgeCount());
        assertEquals(List.of("A"), parentNames(b));
        assertEquals(List.of("A"), parentNames(c));
        DagVertex<String> d = dag.append("D", w(x));
        // A->D would be implied by A->B->D: transitive reduction drops it.
        assertEquals(4, dag.edgeCount());
        assertEquals(List.of("B", "C"), parentNames(d).stream().sorted().toList());
        assertEquals(List.of("D"), names(dag.frontier()));
    }

    @Test
    void noConstOrdersReadersLikeWriters() {
        Dag<String> dag = new Dag<>(DependencyPolicy.NO_CONST);
        DeviceArray x = array();
        dag.append("A", w(x));
        DagVertex<String> b = dag.append("B", r(x));
        DagVertex<String> c = dag.append("C", r(x));
        assertEquals(List.of("A"), parentNames(b));
        assertEquals(List.of("B"), parentNames(c));
        assertEquals(2, dag.edgeCount());
    }

    @Test
    void readersOfAnArrayNobodyWroteHaveNoParents() {
        Dag<String> dag = new Dag<>(DependencyPolicy.WITH_CONST);
        DeviceArray x = array();
        DagVertex<String> a = dag.append("A", r(x));
        DagVertex<String> b = dag.append("B", r(x));
        assertEquals(0, a.parentCount() + b.parentCount());
        assertEquals(List.of("A", "B"), names(dag.frontier()));
    }

    @Test
    void edgesAreLabelledWithEveryArrayThatCausedThem() {
        Dag<String> dag = new Dag<>(DependencyPolicy.WITH_CONST);
        DeviceArray x = array();
        DeviceArray y = array();
        dag.append("A", w(x), w(y));
        DagVertex<String> b = dag.append("B", r(x), r(y));
        assertEquals(List.of(x, y), b.parents().get(0).arrays());
    }

    @Test
    void anArrayPassedTwiceCountsOnceWithTheStrongerAccess() {
        Dag<String> dag = new Dag<>(DependencyPolicy.WITH_CONST);
        DeviceArray x = array();
        DagVertex<String> a = dag.append("A", r(x), new ArrayAccess(x, Access.WRITE));
        assertEquals(1, a.accesses().length);
        assertEquals(Access.READ_WRITE, a.accesses()[0].access());
    }

    @Test
    void retiredVerticesArePrunedAndCreateNoDependencies() {
        Dag<String> dag = new Dag<>(DependencyPolicy.WITH_CONST);
        DeviceArray x = array();
        DagVertex<String> a = dag.append("A", w(x));
        DagVertex<String> b = dag.append("B", r(x));
        dag.retire(a);
        assertEquals(1, dag.vertexCount());
        assertEquals(0, b.parentCount());
        assertTrue(a.isFinished());
        DagVertex<String> c = dag.append("C", r(x));
        assertEquals(0, c.parentCount());
        DagVertex<String> d = dag.append("D", w(x));
        assertEquals(List.of("B", "C"), parentNames(d));
    }

    @Test
    void liveDagStaysBoundedWhenWorkRetiresAsItGoes() {
        Dag<String> dag = new Dag<>(DependencyPolicy.WITH_CONST);
        DeviceArray[] xs = {array(), array(), array(), array()};
        java.util.ArrayDeque<DagVertex<String>> inFlight = new java.util.ArrayDeque<>();
        for (int i = 0; i < 100_000; i++) {
            inFlight.add(dag.append("K", r(xs[i % 4]), w(xs[(i + 1) % 4])));
            if (inFlight.size() > 8) {
                dag.retire(inFlight.poll());
            }
        }
        assertEquals(8, dag.vertexCount());
        assertTrue(dag.edgeCount() <= 16, "edges " + dag.edgeCount());
        assertEquals(4, dag.trackedArrayCount());
    }
}
