package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.READ_WRITE;
import static org.polygpu.sched.NoWorkContexts.NOTHING_FINISHES;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.config.RetrieveParentStreamPolicy;

/**
 * GrCUDA's multi-GPU scheduler tests ({@code MultiGPUExecutionDAGMockTest}, min-transfer-size over 4 and 8 GPUs)
 * replayed on polygpu's scheduler: the same DAGs give the same devices and the same number of streams. Arrays
 * {@code A, B, C} hold 10 floats and {@code D} 100; the four first kernels only read or only write one array each,
 * so they find no data on any device and rotate over devices 0 to 3. Nothing finishes by itself, so every earlier
 * computation stays a live parent. Devices come from {@link MostDataPolicy}.
 */
class GrcudaPlacementTest {
    /**
     * {@code minTransferWithDepTest} (disjoint): the join on A, B, C has parents A,B's writer (device 0) and C's
     * reader (device 2); the oldest, C's reader, lends its stream, so the join runs on device 2 and D's join on 3.
     */
    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {4, 8})
    void disjointTakesTheOldestAvailableParent(int gpus) {
        assertPlacement(gpus, RetrieveParentStreamPolicy.DISJOINT, new Access[] {READ, READ, READ, READ},
                List.of(new Step(READ_WRITE, "AB"), new Step(READ_WRITE, "ABC"), new Step(READ_WRITE, "ABD")),
                List.of(0, 1, 2, 3, 0, 2, 3), 4);
    }

    /**
     * {@code minTransferWithDepMultiGPUTest} (multigpu-early-disjoint): each join goes where most of its data is,
     * and a parent on that device lends its stream.
     */
    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {4, 8})
    void earlyDisjointFollowsTheData(int gpus) {
        assertPlacement(gpus, RetrieveParentStreamPolicy.MULTIGPU_EARLY_DISJOINT,
                new Access[] {READ, READ, READ, READ},
                List.of(new Step(READ_WRITE, "AB"), new Step(READ_WRITE, "ABC"), new Step(READ_WRITE, "ABD")),
                List.of(0, 1, 2, 3, 0, 0, 3), 4);
    }

    /**
     * {@code minTransferWithDep2MultiGPUTest}: the device is chosen before the parent streams are looked at, so the
     * kernel reading A and writing B runs on device 0 (A and B tie, the lowest wins) on a new stream, although its
     * only parent, B's reader, sits on device 1.
     */
    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {4, 8})
    void earlyDisjointChoosesTheDeviceBeforeTheParentStream(int gpus) {
        assertPlacement(gpus, RetrieveParentStreamPolicy.MULTIGPU_EARLY_DISJOINT,
                new Access[] {READ, READ, READ, READ},
                List.of(new Step(READ, "A", READ_WRITE, "B"), new Step(READ_WRITE, "CD"),
                        new Step(READ_WRITE, "ABC")),
                List.of(0, 1, 2, 3, 0, 3, 0), 5);
    }

    /** {@code minTransferWithDep3MultiGPUTest}: A is written first; the last join ties between devices 0 and 3. */
    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {4, 8})
    void earlyDisjointTiesGoToTheLowestDevice(int gpus) {
        assertPlacement(gpus, RetrieveParentStreamPolicy.MULTIGPU_EARLY_DISJOINT,
                new Access[] {READ_WRITE, READ, READ, READ},
                List.of(new Step(READ, "A", READ_WRITE, "B"), new Step(READ_WRITE, "CD"),
                        new Step(READ_WRITE, "BC")),
                List.of(0, 1, 2, 3, 0, 3, 0), 4);
    }

    /** {@code minTransferWithDep4MultiGPUTest}: the last kernel goes to device 3, which holds both A and C. */
    @ParameterizedTest(name = "{0} GPUs")
    @ValueSource(ints = {4, 8})
    void earlyDisjointCountsReadCopies(int gpus) {
        assertPlacement(gpus, RetrieveParentStreamPolicy.MULTIGPU_EARLY_DISJOINT,
                new Access[] {READ, READ, READ, READ},
                List.of(new Step(READ, "A", READ_WRITE, "B"), new Step(READ, "A", READ_WRITE, "CD"),
                        new Step(READ_WRITE, "AC")),
                List.of(0, 1, 2, 3, 0, 3, 3), 5);
    }

    /**
     * One kernel after the four producers: {@code first} accesses the arrays named before it, {@code second} (if
     * not null) the arrays named after it; arrays are named {@code A..D}, in argument order.
     */
    private record Step(Access first, String firstArrays, Access second, String secondArrays) {
        Step(Access access, String arrays) {
            this(access, arrays, null, "");
        }
    }

    private static void assertPlacement(int gpus, RetrieveParentStreamPolicy policy, Access[] producers,
                                        List<Step> steps, List<Integer> expectedDevices, int expectedStreams) {
        try (NoWorkBackend backend = new NoWorkBackend(gpus, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config()
                     .withParentStreamPolicy(policy).withDeviceSelectionPolicy(MostDataPolicy.NAME))) {
            List<DeviceArray> arrays = List.of(ctx.newArray(ElementType.FLOAT, 10), ctx.newArray(ElementType.FLOAT, 10),
                    ctx.newArray(ElementType.FLOAT, 10), ctx.newArray(ElementType.FLOAT, 100));
            List<Integer> devices = new ArrayList<>();
            for (int i = 0; i < producers.length; i++) {
                devices.add(launch(ctx, arrays, new Step(producers[i], String.valueOf((char) ('A' + i)))));
            }
            for (Step step : steps) {
                devices.add(launch(ctx, arrays, step));
            }
            assertEquals(expectedDevices, devices);
            assertEquals(expectedStreams, IntStream.range(0, gpus).map(ctx::streamCount).sum());
        }
    }

    /** Launches a kernel taking the step's arrays with their access modes; returns the device it was given. */
    private static int launch(ExecutionContext ctx, List<DeviceArray> arrays, Step step) {
        List<Access> modes = new ArrayList<>();
        List<DeviceArray> args = new ArrayList<>();
        for (char name : step.firstArrays().toCharArray()) {
            modes.add(step.first());
            args.add(arrays.get(name - 'A'));
        }
        for (char name : step.secondArrays().toCharArray()) {
            modes.add(step.second());
            args.add(arrays.get(name - 'A'));
        }
        Kernel kernel = NoWorkContexts.kernel(ctx, "k" + args.size() + modes, modes.toArray(Access[]::new));
        return NoWorkContexts.launch(ctx, kernel, args.toArray(DeviceArray[]::new)).device();
    }
}
