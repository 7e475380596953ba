package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.topology.BandwidthMatrixLoader;

/** Finished work is found by polling and pruned, so the live DAG stays bounded over a million launches. */
class PruningTest {
    private static final int LAUNCHES = 1_000_000;
    private static final int N = 64;

    @Test
    void aMillionLaunchesOnEightDevicesKeepTheLiveDagBounded() {
        assertTrue(maxLiveVertices(EmulatedBackend.builder()) < 64);
    }

    /** With a host that issues far faster than the devices run, full launch queues block it, as on CUDA. */
    @Test
    void aHostOutrunningTheDevicesIsHeldBackByFullLaunchQueues() {
        int live = maxLiveVertices(EmulatedBackend.builder().hostApiNanos(10).maxPendingPerStream(256));
        assertTrue(live > 256, "the devices fell behind: " + live);
        assertTrue(live <= 16 * 256 + 16, "bounded by the queues: " + live);
    }

    private static int maxLiveVertices(org.polygpu.emulator.EmulatedBackendBuilder builder) {
        try (EmulatedBackend backend = builder.devices(8)
                .topology(BandwidthMatrixLoader.preset("v100x8")).model(DeviceModel.V100).build();
             ExecutionContext ctx = ExecutionContext.create(backend, RuntimeConfig.defaults(), backend.topology())) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray[] xs = new DeviceArray[16];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = ctx.newArray(ElementType.FLOAT, N);
            }
            LaunchConfig config = LaunchConfig.of(1, N);
            int maxLive = 0;
            for (int i = 0; i < LAUNCHES; i++) {
                ctx.launch(inc, config, xs[i % xs.length], N);
                if (i % 1000 == 0) {
                    maxLive = Math.max(maxLive, ctx.dag().vertexCount());
                }
            }
            ctx.synchronize();
            assertEquals(0, ctx.dag().vertexCount());
            for (DeviceArray x : xs) {
                assertEquals((float) (LAUNCHES / xs.length), (Float) ctx.read(x, N - 1));
            }
            // Without pruning the DAG would have held all 10^6 launches.
            return maxLive;
        }
    }
}
