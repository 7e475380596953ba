package org.polygpu.emulator.ptx;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.topology.BandwidthMatrix;

/** PTX kernels through the emulated backend: loading, launch checks, copies, memcheck, budget, counters. */
class PtxBackendTest {
    private static final ModuleImage.Ptx VECTOR = new ModuleImage.Ptx(TestDevice.fixture("vector_add.ptx"));
    private static final BandwidthMatrix TWO_GPUS = new BandwidthMatrix(new double[][] {
        {100, 50, 8}, {50, 200, 16}, {10, 20, 0}});
    private static final OperationLabel L = OperationLabel.NONE;

    private static EmulatedBackend backend() {
        return EmulatedBackend.builder().topology(TWO_GPUS).hostApiNanos(0).parallelism(2).build();
    }

    @Test
    void vectorAddWithCopiesInAndOutOnTwoDevices() {
        int n = 1000;
        long bytes = 4L * n;
        try (EmulatedBackend b = backend()) {
            for (int device = 0; device < 2; device++) {
                MemorySegment x = b.allocateHost(bytes);
                MemorySegment y = b.allocateHost(bytes);
                for (int i = 0; i < n; i++) {
                    x.setAtIndex(JAVA_FLOAT, i, i);
                    y.setAtIndex(JAVA_FLOAT, i, 0.5f * device);
                }
                DeviceBuffer dx = b.allocate(device, bytes);
                DeviceBuffer dy = b.allocate(device, bytes);
                DeviceBuffer dz = b.allocate(device, bytes);
                StreamHandle s = b.createStream(device);
                FunctionHandle vadd = b.function(b.loadModule(device, VECTOR), "vadd");
                b.copyHostToDevice(x, dx, bytes, s, L);
                b.copyHostToDevice(y, dy, bytes, s, L);
                b.launch(vadd, LaunchConfig.of((n + 255) / 256, 256), new Object[] {dx, dy, dz, n}, s, L);
                MemorySegment out = b.allocateHost(bytes);
                b.copyDeviceToHost(dz, out, bytes, s, L);
                b.synchronizeAll();
                for (int i = 0; i < n; i++) {
                    assertEquals(i + 0.5f * device, out.getAtIndex(JAVA_FLOAT, i), "element " + i);
                }
            }
        }
    }

    /** A {@link BufferOffset} argument is the buffer's address plus its offset; the rest of the buffer is untouched. */
    @Test
    void anOffsetArgumentPointsIntoItsBuffer() {
        try (EmulatedBackend b = backend()) {
            MemorySegment host = b.allocateHost(4L * 8);
            for (int i = 0; i < 8; i++) {
                host.setAtIndex(JAVA_FLOAT, i, i);
            }
            DeviceBuffer x = b.allocate(0, 4L * 8);
            DeviceBuffer z = b.allocate(0, 4L * 8);
            StreamHandle s = b.createStream(0);
            b.copyHostToDevice(host, x, 4L * 8, s, L);
            FunctionHandle vadd = b.function(b.loadModule(0, VECTOR), "vadd");
            b.launch(vadd, LaunchConfig.of(1, 32), new Object[] {new BufferOffset(x, 4L * 4), x,
                    new BufferOffset(z, 4L * 2), 4}, s, L);
            MemorySegment out = b.allocateHost(4L * 8);
            b.copyDeviceToHost(z, out, 4L * 8, s, L);
            b.synchronizeAll();
            float[] expected = {0, 0, 4, 6, 8, 10, 0, 0};
            for (int i = 0; i < 8; i++) {
                assertEquals(expected[i], out.getAtIndex(JAVA_FLOAT, i), "z[" + i + "]");
            }
            DeviceBuffer other = b.allocate(1, 16);
            BackendException e = assertThrows(BackendException.class, () -> b.launch(vadd, LaunchConfig.of(1, 4),
                    new Object[] {new BufferOffset(other, 4), x, z, 1}, s, L));
            assertTrue(e.getMessage().contains("argument 0 of kernel 'vadd' is a buffer of device 1"), e.getMessage());
        }
    }

    @Test
    void theSameProgramGivesTheSameTimelineCountersAndData() {
        // PTX kernel durations come from counters, which do not depend on how CTAs spread over threads.
        assertEquals(workload(1), workload(2));
    }

    /** Two devices, copies, a shuffle-and-atomic reduction and a grid-stride kernel; returns all observable results. */
    private static java.util.List<Object> workload(int parallelism) {
        ModuleImage.Ptx warp = new ModuleImage.Ptx(TestDevice.fixture("warp.ptx"));
        try (EmulatedBackend b = EmulatedBackend.builder().topology(TWO_GPUS).parallelism(parallelism).build()) {
            b.recordTimeline(true);
            int n = 4096;
            MemorySegment host = b.allocateHost(4L * n);
            for (int i = 0; i < n; i++) {
                host.setAtIndex(JAVA_FLOAT, i, (i % 16) * 0.25f);
            }
            java.util.List<Object> results = new java.util.ArrayList<>();
            for (int device = 0; device < 2; device++) {
                StreamHandle s = b.createStream(device);
                DeviceBuffer x = b.allocate(device, 4L * n);
                DeviceBuffer sum = b.allocate(device, 4);
                b.copyHostToDevice(host, x, 4L * n, s, L);
                b.launch(b.function(b.loadModule(device, VECTOR), "square"), LaunchConfig.of(8, 128),
                        new Object[] {x, x, n}, s, new OperationLabel(2 * device, "square"));
                b.launch(b.function(b.loadModule(device, warp), "warp_sum"), LaunchConfig.of(n / 256, 256),
                        new Object[] {x, sum}, s, new OperationLabel(2 * device + 1, "warp_sum"));
                MemorySegment out = b.allocateHost(4);
                b.copyDeviceToHost(sum, out, 4, s, L);
                b.synchronizeAll();
                results.add(out.get(JAVA_FLOAT, 0));
                results.add(b.profile(2 * device).orElseThrow().counters());
                results.add(b.profile(2 * device + 1).orElseThrow().counters());
            }
            results.addAll(b.timeline());
            return results;
        }
    }

    @Test
    void unknownKernelNameListsTheKernels() {
        try (EmulatedBackend b = backend()) {
            var m = b.loadModule(0, VECTOR);
            BackendException e = assertThrows(BackendException.class, () -> b.function(m, "vad"));
            assertEquals("no kernel 'vad' in the PTX module; its kernels are [vadd, square, vadd4, oob_read, spin]",
                    e.getMessage());
        }
    }

    @Test
    void argumentMismatchNamesTheParameterAndItsType() {
        try (EmulatedBackend b = backend()) {
            FunctionHandle vadd = b.function(b.loadModule(0, VECTOR), "vadd");
            DeviceBuffer x = b.allocate(0, 16);
            StreamHandle s = b.createStream(0);
            BackendException type = assertThrows(BackendException.class,
                    () -> b.launch(vadd, LaunchConfig.of(1, 4), new Object[] {x, x, 1.0f, 4}, s, L));
            assertEquals("argument 2 of kernel 'vadd' is a Float (1.0) but parameter 2 (vadd_param_2) is .u64; "
                    + "expected a device buffer or a Long", type.getMessage());
            BackendException count = assertThrows(BackendException.class,
                    () -> b.launch(vadd, LaunchConfig.of(1, 4), new Object[] {x, x, x}, s, L));
            assertEquals("kernel 'vadd' takes 4 arguments (.u64, .u64, .u64, .u32) but was launched with 3",
                    count.getMessage());
            BackendException scalar = assertThrows(BackendException.class,
                    () -> b.launch(vadd, LaunchConfig.of(1, 4), new Object[] {x, x, x, 4L}, s, L));
            assertTrue(scalar.getMessage().contains("parameter 3 (vadd_param_3) is .u32; expected an Integer"),
                    scalar.getMessage());
        }
    }

    @Test
    void gridBlockAndSharedMemoryLimitsAreCheckedBeforeRunning() {
        try (EmulatedBackend b = backend()) {
            var m = b.loadModule(0, new ModuleImage.Ptx(TestDevice.fixture("shared.ptx")));
            FunctionHandle sum = b.function(m, "block_sum");
            FunctionHandle reverse = b.function(m, "reverse_dynamic");
            DeviceBuffer x = b.allocate(0, 4096);
            StreamHandle s = b.createStream(0);
            Object[] args = {x, x};
            BackendException block = assertThrows(BackendException.class,
                    () -> b.launch(sum, LaunchConfig.of(1, 2048), args, s, L));
            assertTrue(block.getMessage().contains("kernel 'block_sum': block (2048, 1, 1) exceeds"),
                    block.getMessage());
            BackendException grid = assertThrows(BackendException.class, () -> b.launch(sum,
                    new LaunchConfig(new Dim3(1, 70_000, 1), Dim3.of(32), 0), args, s, L));
            assertTrue(grid.getMessage().contains("grid (1, 70000, 1) exceeds the limit of 65535"),
                    grid.getMessage());
            BackendException shared = assertThrows(BackendException.class, () -> b.launch(reverse,
                    new LaunchConfig(Dim3.of(1), Dim3.of(32), 48 * 1024 + 4), args, s, L));
            assertTrue(shared.getMessage().contains("49156 bytes of shared memory requested"), shared.getMessage());
            b.synchronizeAll();
            assertTrue(b.lastProfile().isEmpty(), "nothing ran");
        }
    }

    @Test
    void memcheckViolationSurfacesAtSynchronisationAndTheBackendStaysUsable() {
        try (EmulatedBackend b = backend()) {
            FunctionHandle oob = b.function(b.loadModule(1, VECTOR), "oob_read");
            FunctionHandle vadd = b.function(b.loadModule(1, VECTOR), "vadd");
            DeviceBuffer a = b.allocate(1, 400);
            DeviceBuffer out = b.allocate(1, 512);
            StreamHandle s = b.createStream(1);
            b.launch(oob, LaunchConfig.of(1, 128), new Object[] {a, out}, s, L);
            BackendException e = assertThrows(BackendException.class, b::synchronizeAll);
            assertTrue(e.getMessage().startsWith("memcheck: kernel 'oob_read' block (0, 0, 0) thread (100, 0, 0): "
                    + "invalid global read of 4 bytes at address 0x"), e.getMessage());
            assertTrue(e.getMessage().contains("past the end of the buffer of 400 bytes on device 1"), e.getMessage());
            assertTrue(e.getMessage().endsWith("(device 1)"), e.getMessage());
            b.launch(vadd, LaunchConfig.of(1, 100), new Object[] {a, a, out, 100}, s, L);
            b.synchronizeAll();
            assertEquals(22 * 100, b.lastProfile().orElseThrow().counters().threadInstructions()); // 22 per thread
        }
    }

    @Test
    void instructionBudgetStopsAnEndlessKernel() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(TWO_GPUS).instructionBudget(100_000).build()) {
            FunctionHandle spin = b.function(b.loadModule(0, VECTOR), "spin");
            b.launch(spin, LaunchConfig.of(2, 32), new Object[] {b.allocate(0, 4)}, b.createStream(0), L);
            BackendException e = assertThrows(BackendException.class, b::synchronizeAll);
            assertTrue(e.getMessage().startsWith("kernel 'spin' exceeded its instruction budget of 100000"),
                    e.getMessage());
        }
    }

    @Test
    void aLaunchTooLargeForTheBudgetIsToldFromAnEndlessOne() {
        // vadd terminates: its blocks complete, so the budget is too small for the grid rather than the kernel endless.
        try (EmulatedBackend b = EmulatedBackend.builder().topology(TWO_GPUS).instructionBudget(50_000).build()) {
            FunctionHandle vadd = b.function(b.loadModule(0, VECTOR), "vadd");
            int n = 32_000;
            DeviceBuffer a = b.allocate(0, 4L * n);
            b.launch(vadd, LaunchConfig.of(n / 32, 32), new Object[] {a, a, b.allocate(0, 4L * n), n},
                    b.createStream(0), L);
            BackendException e = assertThrows(BackendException.class, b::synchronizeAll);
            assertTrue(e.getMessage().startsWith("kernel 'vadd' exceeded its instruction budget of 50000 "
                    + "thread-instructions and was stopped; the launch is likely too large rather than endless: "),
                    e.getMessage());
            assertTrue(e.getMessage().contains(" of its 1000 blocks completed"), e.getMessage());
            assertTrue(!e.getMessage().contains("never terminate"), e.getMessage());
        }
    }

    @Test
    void builderRefusesNonPositiveParallelismAndBudget() {
        var builder = EmulatedBackend.builder();
        IllegalArgumentException threads = assertThrows(IllegalArgumentException.class, () -> builder.parallelism(0));
        assertEquals("parallelism must be at least 1, got 0", threads.getMessage());
        IllegalArgumentException budget = assertThrows(IllegalArgumentException.class,
                () -> builder.instructionBudget(-5));
        assertEquals("instructionBudget must be positive, got -5", budget.getMessage());
    }

    @Test
    void moduleVariablesLiveOnTheDeviceTheModuleIsLoadedOn() {
        try (EmulatedBackend b = backend()) {
            long free = b.freeMemory(1);
            var m = b.loadModule(1, new ModuleImage.Ptx(TestDevice.fixture("numeric.ptx")));
            assertEquals(free - 32, b.freeMemory(1)); // table and coef, 16 bytes each
            DeviceBuffer out = b.allocate(1, 128);
            StreamHandle s = b.createStream(1);
            b.launch(b.function(m, "module_data"), LaunchConfig.of(1, 32), new Object[] {out}, s, L);
            MemorySegment host = b.allocateHost(128);
            b.copyDeviceToHost(out, host, 128, s, L);
            b.synchronizeAll();
            assertEquals(3.5f * 40, host.getAtIndex(JAVA_FLOAT, 31));
        }
    }

    @Test
    void durationComesFromTheCountersAndGrowsWithBytesMoved() {
        try (EmulatedBackend b = backend()) {
            b.recordTimeline(true);
            FunctionHandle square = b.function(b.loadModule(0, VECTOR), "square");
            StreamHandle s = b.createStream(0);
            int[] sizes = {1 << 12, 1 << 16, 1 << 18};
            for (int i = 0; i < sizes.length; i++) {
                DeviceBuffer x = b.allocate(0, 4L * sizes[i]);
                b.launch(square, LaunchConfig.of(80, 256), new Object[] {x, x, sizes[i]}, s,
                        new OperationLabel(i, "square"));
            }
            b.synchronizeAll();
            var t = b.timeline();
            long[] durations = new long[sizes.length];
            for (int i = 0; i < sizes.length; i++) {
                KernelCounters c = b.profile(i).orElseThrow().counters();
                assertEquals(2L * sizes[i] * 4 / 32, c.globalSectors());
                durations[i] = t.get(i).endNanos() - t.get(i).startNanos();
                assertEquals(4_000 + b.model().kernelNanos(b.profile(i).orElseThrow()), durations[i]);
            }
            assertTrue(durations[0] < durations[1] && durations[1] < durations[2],
                    java.util.Arrays.toString(durations));
            // 1 MiB fits the V100's L2 and one block per SM hides no latency: each warp waits for its exposed loads
            // (one per grid-stride iteration) at L2 latency and issues its dependent instructions one after another
            KernelCounters c = b.profile(2).orElseThrow().counters();
            DeviceModel m = b.model();
            double perWarp = c.mix().exposedLoads() / (double) c.warps() * m.memory().l2LatencyNs()
                    + c.warpInstructions() / (double) c.warps() * m.compute().dependentIssueCycles()
                    / m.sm().cyclesPerNano();
            assertEquals(4_000 + (long) Math.ceil(perWarp), durations[2]);
        }
    }
}
