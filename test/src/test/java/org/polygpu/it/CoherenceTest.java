package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.TimedOperation;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.topology.BandwidthMatrix;

/** Coherence across emulated devices with separate memories: results are right only if every copy is made. */
class CoherenceTest {
    private static final int N = 1000;

    @Test
    void forkJoinAcrossTwoDevicesComputesTheRightValues() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("round-robin"))) {
            Kernel inc = Fixtures.inc(ctx);
            Kernel scale = Fixtures.scale(ctx);
            Kernel add = Fixtures.add(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray z = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray w = ctx.newArray(ElementType.FLOAT, N);
            Fixtures.fillWithIndices(ctx, x);
            Computation a = ctx.launch(inc, Fixtures.launch(), x, N);
            Computation b = ctx.launch(scale, Fixtures.launch(), x, y, N, 2f);
            Computation c = ctx.launch(scale, Fixtures.launch(), x, z, N, 3f);
            Computation d = ctx.launch(add, Fixtures.launch(), y, z, w, N);
            // A's stream goes to B; C takes the next device and needs x copied from device 0; D joins on device 0
            // and needs z copied back from device 1.
            assertEquals(List.of(0, 0, 1, 0), List.of(a.device(), b.device(), c.device(), d.device()));
            for (int i = 0; i < N; i += 37) {
                assertEquals(5f * (i + 1), (Float) ctx.read(w, i), "w[" + i + "]");
            }
            assertEquals(2f * 11, (Float) ctx.read(y, 10));
            assertEquals(3f * 11, (Float) ctx.read(z, 10));
        }
    }

    @Test
    void hostWriteIsSeenByTheNextKernelOnAnyDevice() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("round-robin"))) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            Fixtures.fillWithIndices(ctx, x);
            ctx.launch(inc, Fixtures.launch(), x, N);
            assertEquals(8f, (Float) ctx.read(x, 7));
            ctx.write(x, 5, 100f);
            ctx.launch(inc, Fixtures.launch(), x, N);
            ctx.launch(inc, Fixtures.launch(), x, N);
            assertEquals(102f, (Float) ctx.read(x, 5));
            assertEquals(9f, (Float) ctx.read(x, 6));
        }
    }

    @Test
    void missingReplicaIsCopiedFromTheFastestValidLocation() {
        // {{30,45,10},{45,60,20},{10,20,0}}: to GPU 1, GPU 0 (45 GB/s) beats the host (20 GB/s).
        assertEquals(0, copySourceForSecondReader(Fixtures.matrix("test-2gpu")));
        // Here the host link to GPU 1 (20 GB/s) beats the GPU 0 link (5 GB/s).
        BandwidthMatrix hostFaster = new BandwidthMatrix(new double[][] {{30, 5, 50}, {5, 60, 20}, {50, 20, 0}});
        assertEquals(-1, copySourceForSecondReader(hostFaster));
    }

    /** x valid on the host and GPU 0; a reader on GPU 1 copies it; returns the copy's source (-1 = host). */
    private static int copySourceForSecondReader(BandwidthMatrix m) {
        try (EmulatedBackend backend = EmulatedBackend.builder().devices(2).topology(m).model(DeviceModel.V100)
                .build();
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("round-robin"))) {
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            Fixtures.fillWithIndices(ctx, x);
            Computation first = ctx.launch(scale, Fixtures.launch(), x, ctx.newArray(ElementType.FLOAT, N), N, 1f);
            DeviceArray out = ctx.newArray(ElementType.FLOAT, N);
            Computation second = ctx.launch(scale, Fixtures.launch(), x, out, N, 2f);
            assertEquals(List.of(0, 1), List.of(first.device(), second.device()));
            assertEquals(2f * 9, (Float) ctx.read(out, 9));
            ctx.synchronize();
            List<TimedOperation> copies = ctx.timeline().stream()
                    .filter(op -> op.label().computationId() == second.id() && op.kind() != TimedOperation.Kind.KERNEL)
                    .toList();
            assertEquals(1, copies.size(), copies.toString());
            TimedOperation copy = copies.get(0);
            assertEquals(copy.source() < 0 ? TimedOperation.Kind.COPY_HOST_TO_DEVICE
                    : TimedOperation.Kind.COPY_DEVICE_TO_DEVICE, copy.kind());
            return copy.source();
        }
    }
}
