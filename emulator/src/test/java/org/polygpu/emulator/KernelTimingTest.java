package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

/** Kernel durations: 4 000 ns launch latency plus the roofline of the declared cost on a V100. */
class KernelTimingTest {
    private static final long KERNEL = 4_000 + 10_000;
    /** The V100 model's device-memory bandwidth, bytes per nanosecond. */
    private static final double DRAM = DeviceModel.V100.memory().dramGBps();

    @Test
    void durationIsLaunchLatencyPlusRoofline() {
        JavaKernelModule module = JavaKernelModule.builder()
                .kernel("memoryBound", ctx -> { }, KernelCost.fixed(15_700_000, 2_000 * DRAM))
                .kernel("computeBound", ctx -> { }, KernelCost.fixed(31_400_000, 1_000 * DRAM))
                .kernel("perThread", ctx -> { }, KernelCost.perThread(0, DRAM / 100))
                .build();
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            StreamHandle s = b.createStream(0);
            var m = b.loadModule(0, module);
            b.launch(b.function(m, "memoryBound"), LaunchConfig.of(1, 1), new Object[0], s, OperationLabel.NONE);
            b.launch(b.function(m, "computeBound"), LaunchConfig.of(1, 1), new Object[0], s, OperationLabel.NONE);
            b.launch(b.function(m, "perThread"), LaunchConfig.of(1000, 1000), new Object[0], s, OperationLabel.NONE);
            b.synchronizeAll();
            var t = b.timeline();
            // 2 us of bytes at the V100's achievable bandwidth (its peak times the fraction the H100 reached)
            assertEquals(4_000 + 2_000, t.get(0).endNanos() - t.get(0).startNanos());
            // 31.4 MFLOP at 15.67 TFLOP/s: 80 SMs x 1.53 GHz x 2 FP32 warp instructions per clock x 64 FLOP
            assertEquals(4_000 + 2_005, t.get(1).endNanos() - t.get(1).startNanos());
            assertEquals(4_000 + 10_000, t.get(2).endNanos() - t.get(2).startNanos()); // a million threads' bytes
            assertEquals(TimedOperation.Kind.KERNEL, t.get(2).kind());
        }
    }

    @Test
    void kernelsOnTwoStreamsOfOneDeviceShareIt() {
        // A Java kernel uses the whole device: two at once take their latencies in parallel and their work in turn.
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            FunctionHandle store = b.function(b.loadModule(0, Fixtures.module()), "store");
            b.launch(store, LaunchConfig.of(1, 1), new Object[] {b.allocate(0, 4), 1}, b.createStream(0),
                    OperationLabel.NONE);
            b.launch(store, LaunchConfig.of(1, 1), new Object[] {b.allocate(0, 4), 2}, b.createStream(0),
                    OperationLabel.NONE);
            b.synchronizeAll();
            assertEquals(4_000 + 2 * 10_000, b.makespanNanos());
        }
    }

    @Test
    void kernelsOnTwoDevicesDoNotShare() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            for (int device = 0; device < 2; device++) {
                FunctionHandle store = b.function(b.loadModule(device, Fixtures.module()), "store");
                b.launch(store, LaunchConfig.of(1, 1), new Object[] {b.allocate(device, 4), 1},
                        b.createStream(device), OperationLabel.NONE);
            }
            b.synchronizeAll();
            assertEquals(KERNEL, b.makespanNanos());
        }
    }

    @Test
    void kernelsOnOneStreamSerialise() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            FunctionHandle store = b.function(b.loadModule(0, Fixtures.module()), "store");
            StreamHandle s = b.createStream(0);
            b.launch(store, LaunchConfig.of(1, 1), new Object[] {b.allocate(0, 4), 1}, s, OperationLabel.NONE);
            b.launch(store, LaunchConfig.of(1, 1), new Object[] {b.allocate(0, 4), 2}, s, OperationLabel.NONE);
            b.synchronizeAll();
            assertEquals(2 * KERNEL, b.makespanNanos());
        }
    }

    @Test
    void hostApiCostDelaysTheStartOfLaterWork() {
        // Each enqueue costs the host 1 500 ns, so a kernel enqueued second on an idle stream starts at 1 500 ns; the
        // two share the device once both have passed their launch latency, so both are done after 4 000 + 20 000 ns.
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).build()) {
            b.recordTimeline(true);
            FunctionHandle store = b.function(b.loadModule(1, Fixtures.module()), "store");
            b.launch(store, LaunchConfig.of(1, 1), new Object[] {b.allocate(1, 4), 1}, b.createStream(1),
                    OperationLabel.NONE);
            b.launch(store, LaunchConfig.of(1, 1), new Object[] {b.allocate(1, 4), 1}, b.createStream(1),
                    OperationLabel.NONE);
            assertEquals(3_000, b.hostNanos());
            b.synchronizeAll();
            assertEquals(1_500, b.timeline().get(1).startNanos());
            assertEquals(4_000 + 2 * 10_000, b.hostNanos());
            assertEquals(4_000 + 10_000 + 10_000 - 1_500, b.timeline().get(0).endNanos());
        }
    }
}
