package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.BandwidthMatrixLoader;
import org.polygpu.topology.InterconnectProfile;
import org.polygpu.topology.InterconnectProfiler;

/**
 * The whole measuring path on the emulator: profiling an emulated topology reproduces that topology's matrix (as
 * the loader gives it) within 1%, through events, the slope of two copy sizes, the CSV writer and the loader.
 */
class InterconnectProfilerTest {
    private static EmulatedBackend backend(String preset) {
        return EmulatedBackend.builder().topology(BandwidthMatrixLoader.preset(preset)).model(DeviceModel.V100)
                .build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"v100x8", "a100x8", "test-2gpu"})
    void profilingAnEmulatedTopologyReproducesItWithinOnePercent(String preset) {
        BandwidthMatrix expected = BandwidthMatrixLoader.preset(preset);
        try (EmulatedBackend gpus = backend(preset)) {
            BandwidthMatrix measured = new InterconnectProfiler(gpus, InterconnectProfiler.Settings.defaults(gpus))
                    .profile(InterconnectProfiler.Progress.NONE).toMatrix();
            assertEquals(expected.gpuCount(), measured.gpuCount());
            for (int i = 0; i <= expected.gpuCount(); i++) {
                for (int j = 0; j <= expected.gpuCount(); j++) {
                    double e = expected.bandwidth(i, j);
                    double m = measured.bandwidth(i, j);
                    assertTrue(Math.abs(m - e) <= 0.01 * e, preset + " [" + i + "][" + j + "]: measured " + m
                            + " GB/s, the topology says " + e);
                }
            }
        }
    }

    @Test
    void theCopyLatencyDoesNotBiasEvenTinyCopies() {
        // 64 KiB take 1.5 µs at 45 GB/s, less than the 2 µs copy latency plus the 1.5 µs enqueue cost: timing the
        // large copy alone would give 19 GB/s; the slope of two sizes leaves the fixed costs out.
        try (EmulatedBackend gpus = backend("test-2gpu")) {
            InterconnectProfile p = new InterconnectProfiler(gpus, new InterconnectProfiler.Settings(1 << 16, 0, 1))
                    .profile(InterconnectProfiler.Progress.NONE);
            assertEquals(45, p.bandwidth(0, 1), 0.45);
            assertEquals(10, p.bandwidth(-1, 0), 0.1);
            assertEquals(20, p.bandwidth(1, -1), 0.2);
        }
    }

    @Test
    void progressNamesEveryLinkThenSaysDone() {
        List<String> steps = new ArrayList<>();
        try (EmulatedBackend gpus = backend("test-2gpu")) {
            new InterconnectProfiler(gpus, InterconnectProfiler.Settings.defaults(gpus))
                    .profile((done, total, step) -> steps.add(done + "/" + total + " " + step));
        }
        assertEquals(List.of("0/8 host → GPU 0", "1/8 GPU 0 → host", "2/8 host → GPU 1", "3/8 GPU 1 → host",
                "4/8 GPU 0 on-device", "5/8 GPU 0 → GPU 1", "6/8 GPU 1 → GPU 0", "7/8 GPU 1 on-device",
                "8/8 done"), steps);
    }

    @Test
    void profilingLeavesNoMemoryBehind() {
        try (EmulatedBackend gpus = backend("test-2gpu")) {
            long free0 = gpus.freeMemory(0);
            long free1 = gpus.freeMemory(1);
            new InterconnectProfiler(gpus, InterconnectProfiler.Settings.defaults(gpus))
                    .profile(InterconnectProfiler.Progress.NONE);
            assertEquals(free0, gpus.freeMemory(0));
            assertEquals(free1, gpus.freeMemory(1));
        }
    }
}
