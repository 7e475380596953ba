package org.polygpu.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.BackendException;
import org.polygpu.blas.BlasFunction;
import org.polygpu.blas.BlasFunctions;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.cuda.CudaBackend;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * Every BLAS function through cuBLAS on a real GPU against the Java BLAS the emulator runs, from the same random
 * inputs, for each transpose operation. Skipped without a GPU or without cuBLAS (scripts/install-cublas.sh).
 */
@Tag("gpu")
class CublasGpuTest {
    private static final int SIZE = 24;

    @Test
    void cublasAgreesWithTheJavaBlas() {
        try (CudaBackend cuda = Gpu.open(1);
             ExecutionContext ctx = ExecutionContext.create(cuda, RuntimeConfig.defaults(),
                     BandwidthMatrixLoader.preset("test-2gpu").restrictedTo(1))) {
            Random random = new Random(42);
            for (BlasFunction f : BlasFunctions.all()) {
                for (int op = 0; op <= (f.precision().isComplex() ? 2 : 1); op++) {
                    compare(ctx, f, op, random);
                }
            }
        }
    }

    /** Sizes and leading dimensions {@code SIZE}, strides 1, every operation {@code op}, random arrays. */
    private static void compare(ExecutionContext ctx, BlasFunction f, int op, Random random) {
        Object[] onGpu = new Object[f.parameters().size()];
        Object[] inJava = new Object[onGpu.length];
        ElementType t = f.precision().realType();
        for (int i = 0; i < onGpu.length; i++) {
            Parameter p = f.parameters().get(i);
            if (p.pointer()) {
                MemorySegment values = MemorySegment.ofArray(new double[2 * SIZE * SIZE]);
                MemorySegment typed = t == ElementType.DOUBLE ? values
                        : MemorySegment.ofArray(new float[2 * SIZE * SIZE]);
                for (long e = 0; e < 2 * SIZE * SIZE; e++) {
                    double v = random.nextDouble() * 2 - 1;
                    if (t == ElementType.DOUBLE) {
                        typed.setAtIndex(ValueLayout.JAVA_DOUBLE, e, v);
                    } else {
                        typed.setAtIndex(ValueLayout.JAVA_FLOAT, e, (float) v);
                    }
                }
                DeviceArray a = ctx.newArray(t, 2L * SIZE * SIZE);
                ctx.copyFromHost(a, typed);
                onGpu[i] = a;
                inJava[i] = typed;
            } else {
                onGpu[i] = p.name().startsWith("trans") ? op : p.name().startsWith("inc") ? 1 : SIZE;
                inJava[i] = onGpu[i];
            }
        }
        try {
            ctx.libraries().launch(f, f.parameters(), onGpu);
        } catch (BackendException e) {
            Assumptions.assumeFalse(e.getMessage().contains("was not found"), e.getMessage());
            throw e;
        }
        f.runInJava(inJava);
        for (int i = 0; i < onGpu.length; i++) {
            if (onGpu[i] instanceof DeviceArray a && !f.parameters().get(i).access().isReadOnly()) {
                MemorySegment expected = (MemorySegment) inJava[i];
                for (long e = 0; e < a.elementCount(); e++) {
                    double want = t == ElementType.DOUBLE ? expected.getAtIndex(ValueLayout.JAVA_DOUBLE, e)
                            : expected.getAtIndex(ValueLayout.JAVA_FLOAT, e);
                    double got = ((Number) ctx.read(a, e)).doubleValue();
                    double tolerance = (t == ElementType.DOUBLE ? 1e-9 : 1e-3) * SIZE;
                    assertEquals(want, got, tolerance, f.name() + " op " + op + ", " + f.parameters().get(i).name()
                            + "[" + e + "]");
                }
            }
        }
    }
}
