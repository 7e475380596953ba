package org.polygpu.gpu;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.MemoryModel;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.cuda.CuResult;
import org.polygpu.cuda.CudaBackend;
import org.polygpu.cuda.CudaDriver;
import org.polygpu.cuda.CudaException;
import org.polygpu.config.MemoryModel;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.InterconnectProfile;
import org.polygpu.topology.InterconnectProfiler;

/**
 * The CUDA backend on real GPUs: copies between host and devices and between replicas, streams that overlap, errors
 * that leave the context usable, the timeline, managed memory, the scheduler and the profiler on top. Skipped
 * without a GPU; the kernels need NVRTC.
 */
@Tag("gpu")
class CudaBackendGpuTest {
    private static final String KERNELS = """
            extern "C" __global__ void add_one(int *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] += 1;
            }
            extern "C" __global__ void spin(long long cycles, int *done) {
                long long start = clock64();
                while (clock64() - start < cycles) { }
                if (threadIdx.x == 0) done[blockIdx.x] = 1;
            }
            """;
    private static final ModuleImage.CudaSource MODULE = new ModuleImage.CudaSource(KERNELS, "kernels.cu", List.of(),
            List.of());
    /** About 50 ms at the 1.5–2 GHz of data-centre GPUs. */
    private static final long SPIN_CYCLES = 100_000_000L;

    private static int[] ints(int n) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = i * 3 - 7;
        }
        return v;
    }

    @Test
    void hostToDeviceToHostRoundTripsEveryByte() {
        try (CudaBackend gpu = Gpu.open(1)) {
            int[] data = ints(1 << 20);
            DeviceBuffer d = Gpu.upload(gpu, 0, MemorySegment.ofArray(data));
            assertArrayEquals(data, Gpu.download(gpu, d).toArray(JAVA_INT));
        }
    }

    @Test
    void aFreshBufferIsZeroFilled() {
        try (CudaBackend gpu = Gpu.open(1)) {
            DeviceBuffer d = gpu.allocate(0, 4096);
            assertArrayEquals(new int[1024], Gpu.download(gpu, d).toArray(JAVA_INT));
        }
    }

    @Test
    void onDeviceAndPeerCopiesMoveReplicasIntact() {
        try (CudaBackend gpu = Gpu.open(2)) {
            int[] data = ints(1 << 18);
            DeviceBuffer a0 = Gpu.upload(gpu, 0, MemorySegment.ofArray(data));
            DeviceBuffer b0 = gpu.allocate(0, a0.bytes());
            DeviceBuffer a1 = gpu.allocate(1, a0.bytes());
            StreamHandle s0 = gpu.createStream(0);
            StreamHandle s1 = gpu.createStream(1);
            gpu.copyDeviceToDevice(a0, b0, a0.bytes(), s0, Gpu.LABEL);
            EventHandle copied = gpu.createEvent(0);
            gpu.recordEvent(copied, s0);
            gpu.streamWaitEvent(s1, copied);
            gpu.copyDeviceToDevice(b0, a1, a0.bytes(), s1, Gpu.LABEL);
            gpu.synchronizeAll();
            assertArrayEquals(data, Gpu.download(gpu, b0).toArray(JAVA_INT));
            assertArrayEquals(data, Gpu.download(gpu, a1).toArray(JAVA_INT));
        }
    }

    @Test
    void launchesOnDifferentStreamsOverlap() {
        Gpu.assumeNvrtc();
        try (CudaBackend gpu = Gpu.open(1)) {
            FunctionHandle spin = gpu.function(gpu.loadModule(0, MODULE), "spin");
            DeviceBuffer done = gpu.allocate(0, 8);
            StreamHandle a = gpu.createStream(0);
            StreamHandle b = gpu.createStream(0);
            gpu.launch(spin, LaunchConfig.of(1, 32), new Object[] {1000L, done}, a, Gpu.LABEL); // warm-up
            gpu.synchronizeAll();
            long sequential = wallNanos(gpu, () -> {
                gpu.launch(spin, LaunchConfig.of(1, 32), new Object[] {SPIN_CYCLES, done}, a, Gpu.LABEL);
                gpu.launch(spin, LaunchConfig.of(1, 32), new Object[] {SPIN_CYCLES, done}, a, Gpu.LABEL);
            });
            long concurrent = wallNanos(gpu, () -> {
                gpu.launch(spin, LaunchConfig.of(1, 32), new Object[] {SPIN_CYCLES, done}, a, Gpu.LABEL);
                gpu.launch(spin, LaunchConfig.of(1, 32), new Object[] {SPIN_CYCLES, done}, b, Gpu.LABEL);
            });
            assertTrue(concurrent < 0.75 * sequential, "two streams took " + concurrent / 1e6 + " ms, one stream "
                    + sequential / 1e6 + " ms: the launches did not overlap");
        }
    }

    private static long wallNanos(CudaBackend gpu, Runnable work) {
        long start = System.nanoTime();
        work.run();
        gpu.synchronizeAll();
        return System.nanoTime() - start;
    }

    @Test
    void aBadLaunchConfigurationIsAnExceptionAndTheContextStaysUsable() {
        Gpu.assumeNvrtc();
        try (CudaBackend gpu = Gpu.open(1)) {
            FunctionHandle addOne = gpu.function(gpu.loadModule(0, MODULE), "add_one");
            DeviceBuffer d = Gpu.upload(gpu, 0, MemorySegment.ofArray(new int[] {1, 2, 3}));
            StreamHandle s = gpu.createStream(0);
            CudaException e = assertThrows(CudaException.class,
                    () -> gpu.launch(addOne, LaunchConfig.of(1, 4096), new Object[] {d, 3}, s, Gpu.LABEL));
            assertEquals(CuResult.CUDA_ERROR_INVALID_VALUE, e.result().orElseThrow(), e.getMessage());
            assertTrue(e.getMessage().startsWith("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (1)"));
            gpu.launch(addOne, LaunchConfig.of(1, 32), new Object[] {d, 3}, s, Gpu.LABEL);
            gpu.synchronizeAll();
            assertArrayEquals(new int[] {2, 3, 4}, Gpu.download(gpu, d).toArray(JAVA_INT));
        }
    }

    @Test
    void outOfMemoryIsAnExceptionAndTheContextStaysUsable() {
        try (CudaBackend gpu = Gpu.open(1)) {
            long tooMuch = gpu.deviceProperties(0).totalMemory() * 2;
            CudaException e = assertThrows(CudaException.class, () -> gpu.allocate(0, tooMuch));
            assertEquals(CuResult.CUDA_ERROR_OUT_OF_MEMORY, e.result().orElseThrow(), e.getMessage());
            assertTrue(e.getMessage().startsWith("cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2)"));
            DeviceBuffer d = Gpu.upload(gpu, 0, MemorySegment.ofArray(new int[] {5, 6}));
            assertArrayEquals(new int[] {5, 6}, Gpu.download(gpu, d).toArray(JAVA_INT));
        }
    }

    @Test
    void theTimelineHasRealOrderedTimestamps() {
        Gpu.assumeNvrtc();
        try (CudaBackend gpu = Gpu.open(1)) {
            FunctionHandle spin = gpu.function(gpu.loadModule(0, MODULE), "spin");
            DeviceBuffer done = gpu.allocate(0, 8);
            MemorySegment host = gpu.allocateHost(8);
            StreamHandle s = gpu.createStream(0);
            gpu.recordTimeline(true);
            gpu.copyHostToDevice(host, done, 8, s, new OperationLabel(1, "copy in"));
            gpu.launch(spin, LaunchConfig.of(1, 32), new Object[] {SPIN_CYCLES / 10, done}, s,
                    new OperationLabel(2, "spin"));
            gpu.copyDeviceToHost(done, host, 8, s, new OperationLabel(3, "copy out"));
            gpu.synchronizeAll();
            List<TimedOperation> t = gpu.timeline();
            assertEquals(List.of(TimedOperation.Kind.COPY_HOST_TO_DEVICE, TimedOperation.Kind.KERNEL,
                    TimedOperation.Kind.COPY_DEVICE_TO_HOST), t.stream().map(TimedOperation::kind).toList());
            assertTrue(t.get(1).endNanos() - t.get(1).startNanos() > 1_000_000, "the spin took over a millisecond");
            assertTrue(t.get(0).endNanos() <= t.get(1).startNanos() + 1000, "in stream order");
            assertTrue(t.get(1).endNanos() <= t.get(2).startNanos() + 1000, "in stream order");
            assertEquals(1, host.get(JAVA_INT, 0));
        }
    }

    @Test
    void managedMemoryRunsTheSameKernels() {
        Gpu.assumeNvrtc();
        Gpu.assumeGpu();
        try (CudaBackend gpu = CudaBackend.open(CudaDriver.system(), 1, MemoryModel.MANAGED, null)) {
            FunctionHandle addOne = gpu.function(gpu.loadModule(0, MODULE), "add_one");
            DeviceBuffer d = Gpu.upload(gpu, 0, MemorySegment.ofArray(new int[] {10, 20}));
            StreamHandle s = gpu.createStream(0);
            gpu.launch(addOne, LaunchConfig.of(1, 32), new Object[] {d, 2}, s, Gpu.LABEL);
            gpu.prefetch(d, -1, s);
            gpu.synchronizeAll();
            assertArrayEquals(new int[] {11, 21}, Gpu.download(gpu, d).toArray(JAVA_INT));
        }
    }

    @Test
    void theSchedulerKeepsReplicasCoherentAcrossGpus() {
        Gpu.assumeNvrtc();
        Gpu.assumeGpu();
        int devices = Math.min(2, Math.max(1, CudaDriver.system().deviceCount()));
        try (CudaBackend gpu = Gpu.open(devices)) {
            BandwidthMatrix m = new InterconnectProfiler(gpu, new InterconnectProfiler.Settings(1 << 20, 1, 3))
                    .profile(InterconnectProfiler.Progress.NONE).toMatrix();
            RuntimeConfig config = RuntimeConfig.defaults().withDeviceSelectionPolicy("round-robin");
            try (ExecutionContext ctx = ExecutionContext.create(gpu, config, m)) {
                Kernel addOne = ctx.kernel("add_one", MODULE, List.of(
                        Parameter.pointer("x", ElementType.INT, Access.READ_WRITE),
                        Parameter.scalar("n", ElementType.INT)));
                DeviceArray x = ctx.newArray(ElementType.INT, 1000);
                ctx.copyFromHost(x, MemorySegment.ofArray(ints(1000)));
                for (int i = 0; i < 10; i++) {
                    ctx.launch(addOne, LaunchConfig.of(4, 256), x, 1000);
                    // Retired before the next launch, which round-robin then places on the other device: a copy
                    // each time (unretired, a launch would follow its parent on its stream).
                    ctx.synchronize();
                }
                MemorySegment out = MemorySegment.ofArray(new int[1000]);
                ctx.copyToHost(x, out);
                int[] expected = ints(1000);
                for (int i = 0; i < expected.length; i++) {
                    expected[i] += 10;
                }
                assertArrayEquals(expected, out.toArray(JAVA_INT));
            }
        }
    }

    @Test
    void theProfilerSeesAPlausibleInterconnect() {
        try (CudaBackend gpu = Gpu.open(1)) {
            InterconnectProfile p = new InterconnectProfiler(gpu, new InterconnectProfiler.Settings(64L << 20, 2, 5))
                    .profile(InterconnectProfiler.Progress.NONE);
            double h2d = p.bandwidth(-1, 0);
            double d2h = p.bandwidth(0, -1);
            double onDevice = p.bandwidth(0, 0);
            assertTrue(h2d > 1 && h2d < 200, "host to device " + h2d + " GB/s");
            assertTrue(d2h > 1 && d2h < 200, "device to host " + d2h + " GB/s");
            assertTrue(onDevice > h2d, "on-device " + onDevice + " GB/s beats the host link " + h2d);
        }
    }
}
