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
    /**
     * Launches before counting: past the timeline's first read-back (after 4096 operations), from which on its events
     * are reused rather than created.
     */
    private static final int WARM_UP = 4200;

    /** Calls of {@link #LAUNCHES} launches after {@link #WARM_UP} warm-up launches, by driver function. */
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
                for (int i = 0; i < WARM_UP; i++) {
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
     * With the timeline recorded, each launch adds a start event recorded just before it and an end event just after
     * (the end of the launch before is not reused as the start: on an idle stream it would time the host's gap). The
     * timeline reads its events back every 4096 operations (a query and two elapsed times each, outside this window).
     * (Before: 5 calls per launch; after: 3.125.)
     */
    @Test
    void aSteadyLaunchWithTimersAddsItsStartAndEndEvents() {
        Map<String, Integer> calls = steadyCalls(true);
        assertEquals(Map.of("launchKernel", LAUNCHES, "eventRecord", 2 * LAUNCHES + LAUNCHES / 16,
                "eventQuery", LAUNCHES / 16), calls);
    }
}
