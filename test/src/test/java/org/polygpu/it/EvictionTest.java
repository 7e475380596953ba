package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.TimedOperation;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.export.Eviction;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * Eviction on emulated devices whose memory holds three arrays of {@link #N} floats: which replicas go, in which
 * order, written back or dropped, never while work uses them, and the values read back afterwards.
 */
class EvictionTest {
    static final int N = 1000;
    static final long ARRAY_BYTES = 4L * N;

    static EmulatedBackend backend(int devices, long memory) {
        return EmulatedBackend.builder().devices(devices).topology(BandwidthMatrixLoader.preset("v100x8"))
                .model(DeviceModel.V100.withTotalMemory(memory)).build();
    }

    static ExecutionContext singleGpu(EmulatedBackend backend) {
        return Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("single-gpu"));
    }

    static void fill(ExecutionContext ctx, DeviceArray x, float first) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(x.byteSize());
            for (int i = 0; i < N; i++) {
                s.setAtIndex(Fixtures.F, i, first + i);
            }
            ctx.copyFromHost(x, s);
        }
    }

    static List<String> evicted(ExecutionContext ctx) {
        return ctx.evictions().stream().map(Eviction::name).toList();
    }

    private static DeviceArray[] arrays(ExecutionContext ctx, int count) {
        DeviceArray[] a = new DeviceArray[count];
        for (int i = 0; i < count; i++) {
            a[i] = ctx.newArray(ElementType.FLOAT, N);
        }
        return a;
    }

    /** The least recently used replica goes first; as the only valid copy it is written back, then read right. */
    @Test
    void theLeastRecentlyUsedModifiedReplicaIsWrittenBackBeforeItIsDropped() {
        try (EmulatedBackend backend = backend(1, 3 * ARRAY_BYTES);
             ExecutionContext ctx = singleGpu(backend)) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray[] x = arrays(ctx, 5);
            for (int i = 0; i < 5; i++) {
                fill(ctx, x[i], 100 * i);
                ctx.launch(inc, Fixtures.launch(), x[i], N);
            }
            assertEquals(List.of("evict array #0 float[1000] from device 0 (written back)",
                    "evict array #1 float[1000] from device 0 (written back)"), evicted(ctx));
            for (int i = 0; i < 5; i++) {
                for (int j = 0; j < N; j += 99) {
                    assertEquals(100f * i + j + 1, (Float) ctx.read(x[i], j), "x" + i + "[" + j + "]");
                }
            }
            TimedOperation writeBack = ctx.timeline().stream()
                    .filter(op -> op.label().name().equals(ctx.evictions().getFirst().name())).findFirst()
                    .orElseThrow();
            assertEquals(TimedOperation.Kind.COPY_DEVICE_TO_HOST, writeBack.kind());
            assertEquals(ARRAY_BYTES, writeBack.bytes());
            assertTrue(writeBack.endNanos() > writeBack.startNanos(), "the write-back takes link time");
        }
    }

    /** A replica the host also holds is dropped without a copy; a later use copies it in again. */
    @Test
    void aSharedReplicaIsDroppedWithoutACopy() {
        try (EmulatedBackend backend = backend(1, 3 * ARRAY_BYTES);
             ExecutionContext ctx = singleGpu(backend)) {
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray[] x = arrays(ctx, 4);
            fill(ctx, x[0], 1);
            ctx.launch(scale, Fixtures.launch(), x[0], x[1], N, 2f);
            ctx.read(x[1], 0);
            ctx.launch(scale, Fixtures.launch(), x[1], x[2], N, 3f);
            ctx.launch(scale, Fixtures.launch(), x[2], x[3], N, 5f);
            ctx.synchronize();
            assertEquals(List.of("evict array #0 float[1000] from device 0 (dropped)"), evicted(ctx));
            long writeBacks = ctx.timeline().stream().filter(op -> op.label().name().startsWith("evict ")).count();
            assertEquals(0, writeBacks);
            ctx.launch(scale, Fixtures.launch(), x[0], x[1], N, 7f);
            for (int j = 0; j < N; j += 111) {
                assertEquals(7f * (j + 1), (Float) ctx.read(x[1], j));
                assertEquals(30f * (j + 1), (Float) ctx.read(x[3], j));
            }
        }
    }

    /**
     * With x0 in use by a kernel still running and x1 idle but used more recently, x1 goes; when every replica is in
     * use, the host waits for the device's work before writing one back.
     */
    @Test
    void replicasInUseAreNeverEvicted() {
        try (EmulatedBackend backend = backend(1, 3 * ARRAY_BYTES);
             ExecutionContext ctx = singleGpu(backend)) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray[] x = arrays(ctx, 5);
            Computation running = ctx.launch(inc, Fixtures.launch(), x[0], N);
            ctx.launch(inc, Fixtures.launch(), x[1], 10);
            try (Arena arena = Arena.ofConfined()) {
                ctx.copyToHost(x[1], arena.allocate(x[1].byteSize()));
            }
            assertTrue(!running.isFinished(), "x0's kernel still runs");
            ctx.launch(inc, Fixtures.launch(), x[2], N);
            ctx.launch(inc, Fixtures.launch(), x[3], N);
            assertEquals(List.of("evict array #1 float[1000] from device 0 (dropped)"), evicted(ctx));
            ctx.launch(inc, Fixtures.launch(), x[4], N);
            assertEquals("evict array #0 float[1000] from device 0 (written back)", evicted(ctx).get(1));
            long x0Done = kernelEnd(ctx, running.id());
            TimedOperation writeBack = ctx.timeline().stream()
                    .filter(op -> op.label().name().equals(evicted(ctx).get(1))).findFirst().orElseThrow();
            assertTrue(writeBack.startNanos() >= x0Done, "written back after the kernel using it ended");
            for (int i = 0; i < 5; i++) {
                assertEquals(1f, (Float) ctx.read(x[i], 0), "x" + i + "[0]");
                assertEquals(i == 1 ? 0f : 1f, (Float) ctx.read(x[i], N - 1), "x" + i + "[N-1]");
            }
        }
    }

    private static long kernelEnd(ExecutionContext ctx, long computation) {
        ctx.synchronize();
        return ctx.timeline().stream().filter(op -> op.label().computationId() == computation
                && op.kind() == TimedOperation.Kind.KERNEL).findFirst().orElseThrow().endNanos();
    }

    /** Arguments larger than the device fail naming the kernel and the sizes; the context keeps working. */
    @Test
    void argumentsLargerThanTheDeviceFailAndTheContextStaysUsable() {
        try (EmulatedBackend backend = backend(2, 2 * ARRAY_BYTES + 1000);
             ExecutionContext ctx = Fixtures.context(backend, UnaryOperator.identity())) {
            Kernel add = Fixtures.add(ctx);
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray[] x = arrays(ctx, 3);
            fill(ctx, x[0], 1);
            fill(ctx, x[1], 10);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ctx.launch(add, Fixtures.launch(), x[0], x[1], x[2], N));
            assertEquals("kernel 'add' cannot run on device 0: its arrays need 12000 bytes together (array #0 "
                    + "float[1000]: 4000 bytes, array #1 float[1000]: 4000 bytes, array #2 float[1000]: 4000 bytes), "
                    + "more than the 9000 bytes of memory the device has for arrays", e.getMessage());
            ctx.launch(scale, Fixtures.launch(), x[0], x[2], N, 2f);
            ctx.launch(scale, Fixtures.launch(), x[1], x[0], N, 3f);
            for (int j = 0; j < N; j += 77) {
                assertEquals(2f * (j + 1), (Float) ctx.read(x[2], j));
                assertEquals(3f * (j + 10), (Float) ctx.read(x[0], j));
                assertEquals(10f + j, (Float) ctx.read(x[1], j));
            }
        }
    }

    /**
     * Memory the backend allocated after the context opened (module variables, on a GPU the driver's own) is outside
     * the budget: an allocation the device refuses evicts one more replica and is tried again.
     */
    @Test
    void anAllocationTheDeviceRefusesEvictsAnotherReplicaAndIsRetried() {
        try (EmulatedBackend backend = backend(1, 3 * ARRAY_BYTES);
             ExecutionContext ctx = singleGpu(backend)) {
            backend.allocate(0, ARRAY_BYTES);
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray[] x = arrays(ctx, 3);
            for (int i = 0; i < 3; i++) {
                fill(ctx, x[i], 10 * i);
                ctx.launch(inc, Fixtures.launch(), x[i], N);
            }
            assertEquals(List.of("evict array #0 float[1000] from device 0 (written back)"), evicted(ctx));
            for (int i = 0; i < 3; i++) {
                assertEquals(10f * i + N, (Float) ctx.read(x[i], N - 1), "x" + i + "[N-1]");
            }
        }
    }

    /** The budget unchanged: nothing is evicted while everything fits. */
    @Test
    void nothingIsEvictedWhileEverythingFits() {
        try (EmulatedBackend backend = backend(1, 5 * ARRAY_BYTES);
             ExecutionContext ctx = singleGpu(backend)) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray[] x = arrays(ctx, 5);
            for (DeviceArray a : x) {
                ctx.launch(inc, Fixtures.launch(), a, N);
            }
            ctx.synchronize();
            assertEquals(List.of(), evicted(ctx));
            assertEquals(0, backend.freeMemory(0));
        }
    }
}
