package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.config.MemoryModel;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * The driver calls of steady-state launches through the whole scheduler ({@code ExecutionContext.launch}) on the
 * CUDA backend, counted on a stand-in driver whose work completes at once: one stream, each launch reading and
 * writing the array the one before it wrote (so no cross-stream dependency), with the timeline off and on. This is
 * the path {@code CudaLaunchBenchmark.contextLaunch} times on a GPU.
 */
class SteadyLaunchDriverCallsTest {
    private static final int LAUNCHES = 64;

    /** Calls of {@link #LAUNCHES} launches after as many warm-up launches, by driver function. */
    private static Map<String, Integer> steadyCalls(boolean timeline) {
        FakeCudaDriverApi fake = new FakeCudaDriverApi().writingInt("deviceGetCount", 1)
                .writingInt("deviceGetAttribute", 32).on("deviceTotalMem", args -> gibibyte(args[0]))
                .on("memGetInfo", args -> gibibyte(args[0]) + gibibyte(args[1]));
        try (CudaBackend gpu = CudaBackend.open(new CudaDriver(fake.api()), 1, MemoryModel.EXPLICIT, null)) {
            RuntimeConfig config = RuntimeConfig.defaults().withRecording(false, timeline);
            try (ExecutionContext context = ExecutionContext.create(gpu, config,
                    BandwidthMatrixLoader.preset("h100x1"))) {
                Kernel kernel = context.kernel("noop", new ModuleImage.Ptx(".version 8.0\n"), List.of(
                        Parameter.pointer("x", ElementType.INT, Access.READ_WRITE),
                        Parameter.scalar("n", ElementType.INT)));
                DeviceArray array = context.newArray(ElementType.INT, 1);
                LaunchConfig grid = LaunchConfig.of(1, 32);
                for (int i = 0; i < LAUNCHES; i++) {
                    context.launch(kernel, grid, array, 1);
                }
                fake.resetCalls();
                for (int i = 0; i < LAUNCHES; i++) {
                    context.launch(kernel, grid, array, 1);
                }
                return fake.calls();
            }
        }
    }

    private static int gibibyte(Object out) {
        ((MemorySegment) out).reinterpret(8).set(ValueLayout.JAVA_LONG, 0, 1L << 30);
        return 0;
    }

    /**
     * One {@code cuLaunchKernel} per launch; one completion event recorded and one query per 16 launches; no context
     * switch, stream wait, event creation or allocation. (Before: a record and a query after every launch, 3 calls
     * per launch.)
     */
    @Test
    void aSteadyLaunchWithoutTimersIsOneDriverCallPlusAnEventPerSixteen() {
        Map<String, Integer> calls = steadyCalls(false);
        assertEquals(Map.of("launchKernel", LAUNCHES, "eventRecord", LAUNCHES / 16, "eventQuery", LAUNCHES / 16),
                calls);
    }

    /**
     * With the timeline recorded, each launch adds its end event; its start is the end event of the launch before it
     * on the stream, recorded at the same point. (Before: a start and an end event more per launch, 5 calls.)
     */
    @Test
    void aSteadyLaunchWithTimersAddsOneEventRecord() {
        Map<String, Integer> calls = steadyCalls(true);
        assertEquals(LAUNCHES, calls.get("launchKernel"));
        assertEquals(LAUNCHES + LAUNCHES / 16, calls.get("eventRecord"));
        assertEquals(LAUNCHES / 16, calls.get("eventQuery"));
        assertEquals(null, calls.get("ctxSetCurrent"));
        assertEquals(null, calls.get("streamWaitEvent"));
    }
}
