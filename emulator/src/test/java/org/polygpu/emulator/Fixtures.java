package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.MemorySegment;
import org.polygpu.topology.BandwidthMatrix;

/** Shared set-up for the emulator tests: a small topology with distinct entries and a few Java kernels. */
final class Fixtures {
    /**
     * Two GPUs: peer 50 GB/s, on-device 100 and 200 GB/s; host to GPU 0 / 1 at 10 / 20 GB/s, GPU 0 / 1 to host at
     * 8 / 16 GB/s (GB/s being bytes per nanosecond, durations come out exact).
     */
    static final BandwidthMatrix TWO_GPUS = new BandwidthMatrix(new double[][] {
            {100, 50, 8},
            {50, 200, 16},
            {10, 20, 0}});

    /** Bytes a V100 kernel moves in exactly 10 000 ns at the model's device-memory bandwidth. */
    static final double TEN_MICROS_OF_BYTES = 10_000 * DeviceModel.V100.memory().dramGBps();

    /** {@code y[i] = a * x[i] + y[i]} for {@code i < n}; arguments (x, y, a, n). */
    static final JavaKernel SAXPY = ctx -> {
        MemorySegment x = ctx.pointer(0);
        MemorySegment y = ctx.pointer(1);
        float a = ctx.floatArg(2);
        int n = ctx.intArg(3);
        for (int i = 0; i < n; i++) {
            y.setAtIndex(JAVA_FLOAT, i, a * x.getAtIndex(JAVA_FLOAT, i) + y.getAtIndex(JAVA_FLOAT, i));
        }
    };

    /** Writes {@code value} into element 0 of its buffer; arguments (out, value). */
    static final JavaKernel STORE = ctx -> ctx.pointer(0).setAtIndex(JAVA_INT, 0, ctx.intArg(1));

    /** Copies element 0 of {@code in} to element 0 of {@code out}; arguments (in, out). */
    static final JavaKernel MOVE = ctx ->
            ctx.pointer(1).setAtIndex(JAVA_INT, 0, ctx.pointer(0).getAtIndex(JAVA_INT, 0));

    private Fixtures() {
    }

    /** Two V100s on {@link #TWO_GPUS} with no host API cost, so that operations start at time 0. */
    static EmulatedBackend twoGpusNoHostCost() {
        return EmulatedBackend.builder().topology(TWO_GPUS).hostApiNanos(0).build();
    }

    /** A module with SAXPY (per element cost) and STORE / MOVE (10 µs and 0 µs of memory traffic). */
    static JavaKernelModule module() {
        return JavaKernelModule.builder()
                .kernel("saxpy", SAXPY, KernelCost.perElement(3, 2, 12))
                .kernel("store", STORE, KernelCost.fixed(0, TEN_MICROS_OF_BYTES))
                .kernel("move", MOVE, KernelCost.fixed(0, 0))
                .build();
    }
}
