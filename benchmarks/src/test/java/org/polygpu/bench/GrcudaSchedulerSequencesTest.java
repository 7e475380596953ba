package org.polygpu.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.config.RetrieveParentStreamPolicy.DISJOINT;
import static org.polygpu.config.RetrieveParentStreamPolicy.MULTIGPU_DISJOINT;
import static org.polygpu.config.RetrieveParentStreamPolicy.MULTIGPU_EARLY_DISJOINT;
import static org.polygpu.config.RetrieveParentStreamPolicy.SAME_AS_PARENT;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.config.DependencyPolicy;
import org.polygpu.config.RetrieveParentStreamPolicy;

/**
 * GrCUDA's multi-GPU scheduler tests ({@code MultiGPUExecutionDAGMockTest}, {@code MultiGPUComplexDAGMockTest})
 * replayed with polygpu's policies: each row is a DAG of {@link GrcudaDags}, a GPU count, a device-selection policy
 * and a parent-stream rule, with the device of every kernel and the number of streams GrCUDA's test expects; and
 * {@code ComplexExecutionDAGMockTest}'s stream numbers on one GPU. Where polygpu differs on purpose the row asserts
 * polygpu's sequence and says why.
 */
class GrcudaSchedulerSequencesTest {
    static Stream<Arguments> sequences() {
        return Stream.of(
                // Stream-aware: the device with the fewest busy streams.
                row("image", GrcudaDags.image(), 1, "stream-aware", DISJOINT, "0 0 0 0 0 0 0 0 0 0 0", 4),
                row("image", GrcudaDags.image(), 2, "stream-aware", DISJOINT, "0 1 0 0 1 0 1 0 0 1 0", 4),
                row("image", GrcudaDags.image(), 3, "stream-aware", DISJOINT, "0 1 2 0 1 2 0 2 2 1 0", 4),
                row("hits", GrcudaDags.hits(), 1, "stream-aware", DISJOINT, "0 0 0 0 0 0 0 0 0 0 0 0", 2),
                row("hits", GrcudaDags.hits(), 2, "stream-aware", DISJOINT, "0 1 0 1 0 1 0 1 0 1 0 1", 2),
                row("hits", GrcudaDags.hits(), 3, "stream-aware", DISJOINT, "0 1 0 1 0 1 0 1 0 1 0 1", 2),
                row("many kernels", GrcudaDags.manyKernels(), 4, "stream-aware", DISJOINT,
                        "0 1 2 3 0 1 2 3 0 2 0 0 2 1", 6),
                row("fork-join", GrcudaDags.forkJoin(), 2, "stream-aware", DISJOINT, "0 1 0 0 0", 3),
                // Round-robin.
                row("independent", GrcudaDags.independent(), 1, "round-robin", DISJOINT, "0 0 0 0 0 0 0 0 0 0", 10),
                row("independent", GrcudaDags.independent(), 4, "round-robin", DISJOINT, "0 1 2 3 0 1 2 3 0 1", 10),
                row("independent", GrcudaDags.independent(), 8, "round-robin", DISJOINT, "0 1 2 3 4 5 6 7 0 1", 10),
                row("image", GrcudaDags.image(), 3, "round-robin", DISJOINT, "0 1 2 0 1 2 0 2 2 1 0", 4),
                row("hits", GrcudaDags.hits(), 4, "round-robin", DISJOINT, "0 1 0 1 0 1 0 1 0 1 0 1", 2),
                row("fork-join", GrcudaDags.forkJoin(), 2, "round-robin", DISJOINT, "0 1 0 0 0", 3),
                // Single GPU.
                row("image", GrcudaDags.image(), 3, "single-gpu", DISJOINT, "0 0 0 0 0 0 0 0 0 0 0", 4),
                row("hits", GrcudaDags.hits(), 3, "single-gpu", DISJOINT, "0 0 0 0 0 0 0 0 0 0 0 0", 2),
                // Min-transfer-size: round-robin while no device holds data, then where the most bytes are.
                row("independent", GrcudaDags.independent(), 4, "min-transfer-size", DISJOINT,
                        "0 1 2 3 0 1 2 3 0 1", 10),
                // GrCUDA keeps the whole image pipeline on device 0. polygpu differs on purpose: after seven kernels
                // device 0 has 4 busy streams, more than twice the mean, and the data-aware policies pass over such
                // a crowded device (DataAwarePolicy), so the last four go to device 2, on a fifth stream.
                row("image", GrcudaDags.image(), 3, "min-transfer-size", MULTIGPU_EARLY_DISJOINT,
                        "0 0 0 0 0 0 0 2 2 2 2", 5),
                row("hits", GrcudaDags.hits(), 4, "min-transfer-size", MULTIGPU_EARLY_DISJOINT,
                        "0 1 0 1 0 1 0 0 0 0 0 0", 3),
                row("many kernels", GrcudaDags.manyKernels(), 4, "min-transfer-size", MULTIGPU_EARLY_DISJOINT,
                        "0 1 2 3 0 1 2 3 0 2 0 0 0 0", 7),
                row("fork-join", GrcudaDags.forkJoin(), 2, "min-transfer-size", MULTIGPU_EARLY_DISJOINT,
                        "0 1 0 0 0", 3),
                row("join 1", GrcudaDags.join(1), 4, "min-transfer-size", MULTIGPU_DISJOINT, "0 1 2 3 0 0 3", 4),
                row("join 2", GrcudaDags.join(2), 4, "min-transfer-size", MULTIGPU_DISJOINT, "0 1 2 3 1 3 1", 4),
                row("join 3", GrcudaDags.join(3), 4, "min-transfer-size", MULTIGPU_DISJOINT, "0 1 2 3 0 3 0", 4),
                row("join 4", GrcudaDags.join(4), 4, "min-transfer-size", MULTIGPU_DISJOINT, "0 1 2 3 1 3 3", 4),
                row("image", GrcudaDags.image(), 3, "min-transfer-size", MULTIGPU_DISJOINT, "0 0 0 0 0 0 0 2 2 2 2", 5),
                row("hits", GrcudaDags.hits(), 4, "min-transfer-size", MULTIGPU_DISJOINT,
                        "0 1 0 1 0 1 0 1 0 1 0 1", 2),
                row("many kernels", GrcudaDags.manyKernels(), 4, "min-transfer-size", MULTIGPU_DISJOINT,
                        "0 1 2 3 0 1 2 3 0 2 0 0 2 2", 6),
                row("fork-join", GrcudaDags.forkJoin(), 2, "min-transfer-size", MULTIGPU_DISJOINT, "0 1 0 0 0", 3));
    }

    static Stream<Arguments> partitioned() {
        List<Arguments> rows = new ArrayList<>();
        for (String policy : List.of("min-transfer-size", "minmax-transfer-time", "minmin-transfer-time")) {
            for (RetrieveParentStreamPolicy parents : List.of(DISJOINT, MULTIGPU_DISJOINT, MULTIGPU_EARLY_DISJOINT)) {
                for (int gpus : new int[] {2, 4, 8}) {
                    rows.add(row("bs", GrcudaDags.blackScholes(), gpus, policy, parents, rotation(24, gpus, 1), 24));
                    rows.add(row("vec", GrcudaDags.vec(), gpus, policy, parents, vecPairs(gpus), 32));
                    // GrCUDA counts 68 streams: its synchronization finishes only the work on the awaited
                    // computations' streams, and later kernels reuse the streams of parents still unfinished
                    // elsewhere. Here the poll after the host's wait finds all earlier work done, so one kernel per
                    // iteration finds no unfinished parent and opens a stream of its own.
                    rows.add(row("cg", GrcudaDags.conjugateGradient(), gpus, policy, parents, cg(gpus), 71));
                    if (parents != DISJOINT) {
                        rows.add(row("mul", GrcudaDags.matrixVector(), gpus, policy, parents,
                                rotation(16, gpus, 1) + " 0".repeat(16), 16));
                    }
                }
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}, {2} GPUs, {3}, {4}")
    @MethodSource({"sequences", "partitioned"})
    void placesLikeGrcuda(String name, GrcudaDags dag, int gpus, String policy, RetrieveParentStreamPolicy parents,
                          List<Integer> devices, int streams) {
        GrcudaDags.Placement placed = dag.place(gpus, GrcudaDags.config(policy, parents));
        assertEquals(devices, placed.devices());
        assertEquals(streams, placed.streams());
    }

    /**
     * {@code ComplexExecutionDAGMockTest} on one GPU: with {@code disjoint} the two HITS chains keep streams 0 and 1
     * through ten iterations; with {@code same-as-parent} the first chain joins the second's stream 1 after the first
     * iteration. Two streams in all.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("singleGpuRules")
    void hitsKeepsTwoStreams(RetrieveParentStreamPolicy parents, DependencyPolicy dependencies) {
        GrcudaDags.Placement placed = GrcudaDags.hits(10).place(1,
                GrcudaDags.config("round-robin", parents, dependencies));
        for (int i = 0; i < 10; i++) {
            int first = parents == DISJOINT || i == 0 ? 0 : 1;
            assertEquals(first, placed.streamIds().get(6 * i), "hub1 -> auth2, iteration " + i);
            assertEquals(1, placed.streamIds().get(6 * i + 1), "auth1 -> hub2, iteration " + i);
        }
        assertEquals(2, placed.streams());
    }

    /**
     * {@code ComplexExecutionDAGMockTest.imageMockTest} on one GPU: 4 streams with {@code disjoint} and const
     * arguments, 1 with {@code same-as-parent} and every argument a dependency, 3 otherwise.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("singleGpuRules")
    void imageStreamCount(RetrieveParentStreamPolicy parents, DependencyPolicy dependencies) {
        int expected = parents == DISJOINT && dependencies == DependencyPolicy.WITH_CONST ? 4
                : parents == SAME_AS_PARENT && dependencies == DependencyPolicy.NO_CONST ? 1 : 3;
        assertEquals(expected, GrcudaDags.image().place(1, GrcudaDags.config("round-robin", parents, dependencies))
                .streams());
    }

    static Stream<Arguments> singleGpuRules() {
        return Stream.of(Arguments.of(DISJOINT, DependencyPolicy.WITH_CONST),
                Arguments.of(DISJOINT, DependencyPolicy.NO_CONST),
                Arguments.of(SAME_AS_PARENT, DependencyPolicy.WITH_CONST),
                Arguments.of(SAME_AS_PARENT, DependencyPolicy.NO_CONST));
    }

    private static Arguments row(String name, GrcudaDags dag, int gpus, String policy,
                                 RetrieveParentStreamPolicy parents, String devices, int streams) {
        List<Integer> expected = Stream.of(devices.split(" ")).map(Integer::valueOf).toList();
        return Arguments.of(name, dag, gpus, policy, parents, expected, streams);
    }

    /** {@code partitions} kernels rotating over {@code gpus} devices, each repeated {@code times} times. */
    private static String rotation(int partitions, int gpus, int times) {
        StringBuilder s = new StringBuilder();
        for (int p = 0; p < partitions; p++) {
            for (int t = 0; t < times; t++) {
                s.append(s.isEmpty() ? "" : " ").append(p % gpus);
            }
        }
        return s.toString();
    }

    /** CG: each partition's two set-up kernels on its device, then every kernel but the partitions' on device 0. */
    private static String cg(int gpus) {
        StringBuilder s = new StringBuilder(rotation(16, gpus, 2)).append(" 0 0");
        for (int iteration = 0; iteration < 3; iteration++) {
            s.append(' ').append(rotation(16, gpus, 1)).append(" 0 0 0 0 0");
        }
        return s.toString();
    }

    /** VEC's partitions in GrCUDA's order: x's kernel on an even device, y's on the next, the join with x's. */
    private static String vecPairs(int gpus) {
        StringBuilder s = new StringBuilder();
        for (int p = 0; p < 16; p++) {
            int even = 2 * p % gpus;
            s.append(s.isEmpty() ? "" : " ").append(even).append(' ').append(even + 1).append(' ').append(even);
        }
        return s.toString();
    }
}
