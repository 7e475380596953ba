package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;

/** Device sequences chosen for pipeline and fork-join DAGs on 2, 4 and 8 emulated devices. */
class DeviceSequenceTest {
    private static final int N = 1000;

    /** One pipeline per device, launched stage by stage: each pipeline stays on the device its first stage got. */
    @ParameterizedTest(name = "{0} devices, {1}")
    @CsvSource({
        "2, test-2gpu, round-robin", "4, v100x8, round-robin", "8, v100x8, round-robin",
        "2, test-2gpu, minmax-transfer-time", "4, v100x8, minmax-transfer-time", "8, v100x8, minmax-transfer-time",
        "8, a100x8, stream-aware", "8, h100x8, min-transfer-size", "8, v100x8, minmin-transfer-time",
    })
    void independentPipelinesSpreadOnePerDeviceAndStayThere(int devices, String topology, String policy) {
        try (EmulatedBackend backend = Fixtures.backend(devices, topology);
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy(policy))) {
            Kernel inc = Fixtures.inc(ctx);
            List<DeviceArray> xs = new ArrayList<>();
            for (int p = 0; p < devices; p++) {
                DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
                ctx.write(x, 0, (float) p);
                xs.add(x);
            }
            List<List<Integer>> perStage = new ArrayList<>();
            List<Integer> expected = new ArrayList<>();
            for (int p = 0; p < devices; p++) {
                expected.add(p);
            }
            for (int stage = 0; stage < 3; stage++) {
                List<Integer> seq = new ArrayList<>();
                for (DeviceArray x : xs) {
                    seq.add(ctx.launch(inc, Fixtures.launch(), x, N).device());
                }
                perStage.add(seq);
            }
            assertEquals(List.of(expected, expected, expected), perStage);
            for (int p = 0; p < devices; p++) {
                assertEquals(p + 3f, (Float) ctx.read(xs.get(p), 0));
            }
        }
    }

    /**
     * Two producers on devices 0 and 1, then a join reading both. On the 2-GPU matrix
     * {{30,45,10},{45,60,20},{10,20,0}} the join's output (on the host) comes faster to GPU 1 (20 GB/s) than to
     * GPU 0 (10 GB/s), so the transfer-time policies pick 1 while round-robin returns to 0.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"round-robin, 0", "stream-aware, 0", "minmax-transfer-time, 1", "minmin-transfer-time, 1"})
    void forkJoinOnTwoDevices(String policy, int joinDevice) {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy(policy))) {
            Kernel inc = Fixtures.inc(ctx);
            Kernel add = Fixtures.add(ctx);
            DeviceArray a = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray b = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray out = ctx.newArray(ElementType.FLOAT, N);
            Computation p0 = ctx.launch(inc, Fixtures.launch(), a, N);
            Computation p1 = ctx.launch(inc, Fixtures.launch(), b, N);
            Computation join = ctx.launch(add, Fixtures.launch(), a, b, out, N);
            assertEquals(List.of(0, 1, joinDevice), List.of(p0.device(), p1.device(), join.device()));
            assertEquals(2f, (Float) ctx.read(out, N - 1));
        }
    }

    /** A reduction tree over 8 devices: every level joins pairs and the result is right wherever it ran. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"round-robin", "minmax-transfer-time", "min-transfer-size"})
    void reductionTreeOnEightDevices(String policy) {
        try (EmulatedBackend backend = Fixtures.backend(8, "v100x8");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy(policy))) {
            Kernel inc = Fixtures.inc(ctx);
            Kernel add = Fixtures.add(ctx);
            List<DeviceArray> level = new ArrayList<>();
            List<Integer> leaves = new ArrayList<>();
            for (int p = 0; p < 8; p++) {
                DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
                leaves.add(ctx.launch(inc, Fixtures.launch(), x, N).device());
                level.add(x);
            }
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), leaves);
            List<Integer> where = leaves;
            while (level.size() > 1) {
                List<DeviceArray> next = new ArrayList<>();
                List<Integer> nextWhere = new ArrayList<>();
                for (int i = 0; i < level.size(); i += 2) {
                    DeviceArray sum = ctx.newArray(ElementType.FLOAT, N);
                    Computation c = ctx.launch(add, Fixtures.launch(), level.get(i), level.get(i + 1), sum, N);
                    // A join reuses the stream of one of its parents, so it runs where one operand already is.
                    List<Integer> operands = List.of(where.get(i), where.get(i + 1));
                    assertEquals(true, operands.contains(c.device()), "join on " + c.device() + ", operands on "
                            + operands);
                    next.add(sum);
                    nextWhere.add(c.device());
                }
                level = next;
                where = nextWhere;
            }
            assertEquals(8f, (Float) ctx.read(level.get(0), 17));
        }
    }
}
