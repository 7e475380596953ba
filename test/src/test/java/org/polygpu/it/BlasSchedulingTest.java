package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.TimedOperation;
import org.polygpu.blas.BlasFunction;
import org.polygpu.blas.BlasFunctions;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.KernelWork;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;

/** BLAS functions as computations of the DAG on emulated GPUs: placement, coherence and roofline timing. */
class BlasSchedulingTest {
    private static final int N = 64;
    private static final BlasFunction DGEMM = BlasFunctions.named("cublasDgemm").orElseThrow();
    private static final BlasFunction DAXPY = BlasFunctions.named("cublasDaxpy").orElseThrow();

    private static DeviceArray scalar(ExecutionContext ctx, double v) {
        DeviceArray a = ctx.newArray(ElementType.DOUBLE, 1);
        ctx.write(a, 0, v);
        return a;
    }

    /** A = 2 I, B(i, j) = i + N j. */
    private static void fill(ExecutionContext ctx, DeviceArray a, DeviceArray b) {
        for (int i = 0; i < N; i++) {
            ctx.write(a, i + (long) N * i, 2.0);
            for (int j = 0; j < N; j++) {
                ctx.write(b, i + (long) N * j, (double) (i + N * j));
            }
        }
    }

    private static Computation gemm(ExecutionContext ctx, DeviceArray alpha, DeviceArray a, DeviceArray b,
                                    DeviceArray beta, DeviceArray c) {
        return ctx.libraries().launch(DGEMM, DGEMM.parameters(), 0, 0, N, N, N, alpha, a, N, b, N, beta, c, N);
    }

    @Test
    void independentProductsRunOnTwoGpusAndAnAxpyJoinsThem() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("round-robin"))) {
            DeviceArray one = scalar(ctx, 1);
            DeviceArray zero = scalar(ctx, 0);
            DeviceArray a = ctx.newArray(ElementType.DOUBLE, N * N);
            DeviceArray b = ctx.newArray(ElementType.DOUBLE, N * N);
            DeviceArray c1 = ctx.newArray(ElementType.DOUBLE, N * N);
            DeviceArray c2 = ctx.newArray(ElementType.DOUBLE, N * N);
            fill(ctx, a, b);
            Computation g1 = gemm(ctx, one, a, b, zero, c1);
            Computation g2 = gemm(ctx, one, a, b, zero, c2);
            Computation sum = ctx.libraries().launch(DAXPY, DAXPY.parameters(), N * N, one, c2, 1, c1, 1);
            assertTrue(g1.device() != g2.device(), "read-only inputs let the products run on two GPUs");
            // Edges go only to parents still unfinished when the axpy was scheduled: the second product at least.
            List<Long> parents = ctx.scheduleLog().edges().stream().filter(e -> e.to() == sum.id())
                    .map(e -> e.from()).toList();
            assertTrue(parents.contains(g2.id()) && List.of(g1.id(), g2.id()).containsAll(parents), "" + parents);
            for (int i = 0; i < N * N; i += 101) {
                assertEquals(4.0 * i, (Double) ctx.read(c1, i), "c1[" + i + "] = 2 (2 B)");
                assertEquals(2.0 * i, (Double) ctx.read(c2, i), "c2[" + i + "]");
            }
        }
    }

    @Test
    void aProductTakesTheLaunchLatencyPlusItsRooflineTime() {
        try (EmulatedBackend backend = Fixtures.backend(1, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend)) {
            DeviceArray a = ctx.newArray(ElementType.DOUBLE, N * N);
            DeviceArray b = ctx.newArray(ElementType.DOUBLE, N * N);
            DeviceArray c = ctx.newArray(ElementType.DOUBLE, N * N);
            Computation g = gemm(ctx, scalar(ctx, 1), a, b, scalar(ctx, 0), c);
            ctx.synchronize();
            TimedOperation op = ctx.timeline().stream()
                    .filter(t -> t.kind() == TimedOperation.Kind.KERNEL && t.label().computationId() == g.id())
                    .findFirst().orElseThrow();
            Object[] args = {0, 0, N, N, N, null, null, N, null, N, null, null, N};
            long roofline = DeviceModel.V100.rooflineNanos(new KernelWork(DGEMM.flops(args), DGEMM.bytes(args)));
            assertEquals(4_000 + roofline, op.endNanos() - op.startNanos());
            assertEquals(List.of("cublasDgemm"), List.of(op.label().name()));
        }
    }

    @Test
    void argumentsAreCheckedAgainstTheParametersAndFaultsAreReported() {
        try (EmulatedBackend backend = Fixtures.backend(1, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend)) {
            DeviceArray x = ctx.newArray(ElementType.FLOAT, 4);
            IllegalArgumentException wrongType = assertThrows(IllegalArgumentException.class,
                    () -> ctx.libraries().launch(DAXPY, DAXPY.parameters(), 4, scalar(ctx, 1), x, 1, x, 1));
            assertTrue(wrongType.getMessage().contains("parameter 'x: in pointer double'"), wrongType.getMessage());
            DeviceArray y = ctx.newArray(ElementType.DOUBLE, 4);
            ctx.libraries().launch(DAXPY, DAXPY.parameters(), 8, scalar(ctx, 1), y, 1, y, 1);
            RuntimeException fault = assertThrows(RuntimeException.class, () -> ctx.read(y, 0));
            assertTrue(fault.getMessage().contains("cublasDaxpy") && fault.getMessage().contains("out of bounds"),
                    fault.getMessage());
        }
    }
}
