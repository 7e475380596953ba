package org.polygpu.it;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.blas.BlasFunction;
import org.polygpu.blas.BlasFunctions;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;

/**
 * The child-JVM half of {@link FakeCublasTest}: with the fake CUDA driver as {@code libcuda.so.1} and the fake
 * cuBLAS as {@code POLYGPU_CUBLAS}, it calls BLAS functions through the scheduler on the CUDA backend and prints, for
 * each, whether the result equals what the Java BLAS computes from the same inputs, and on which devices it ran.
 */
final class FakeCublasProbe {
    private static final int N = 300;

    private FakeCublasProbe() {
    }

    public static void main(String[] args) {
        OpenedBackend opened = Backends.open("cuda", BackendOptions.defaults().withBandwidthMatrix("test-2gpu"));
        try (Backend cuda = opened.backend();
             ExecutionContext ctx = ExecutionContext.create(cuda,
                     RuntimeConfig.defaults().withDeviceSelectionPolicy("round-robin"), opened.bandwidth())) {
            List<Integer> devices = new ArrayList<>();
            compare(ctx, devices, "cublasDaxpy", new Object[] {N, vector(1, 2), vector(N, 3), 1, vector(N, 5), 1});
            compare(ctx, devices, "cublasSaxpy", new Object[] {N / 2, floats(1, 2), floats(N, 3), -2, floats(N, 5), 2});
            compare(ctx, devices, "cublasDscal", new Object[] {N, vector(1, 7), vector(N, 3), 1});
            compare(ctx, devices, "cublasDdot", new Object[] {N, vector(N, 3), 1, vector(N, 5), 1, vector(1, 0)});
            compare(ctx, devices, "cublasSnrm2", new Object[] {N, floats(N, 3), 1, floats(1, 0)});
            int m = 20;
            compare(ctx, devices, "cublasSgemv", new Object[] {1, m, m + 3, floats(1, 2), floats(m * (m + 3), 3), m,
                    floats(m, 5), 1, floats(1, 0.5), floats(m + 3, 7), 1});
            compare(ctx, devices, "cublasDgemm", new Object[] {0, 1, m, m + 1, m + 2, vector(1, 2),
                    vector(m * (m + 2), 3), m, vector((m + 1) * (m + 2), 5), m + 1, vector(1, 0), vector(m * (m + 1), 7),
                    m});
            System.out.println("devices: " + devices);
            try {
                BlasFunction daxpy = BlasFunctions.named("cublasDaxpy").orElseThrow();
                ctx.libraries().launch(daxpy, daxpy.parameters(), 4, array(ctx, vector(1, 1)),
                        array(ctx, vector(4, 1)), 0, array(ctx, vector(4, 1)), 1);
                ctx.synchronize();
                System.out.println("zero stride: accepted");
            } catch (RuntimeException e) {
                System.out.println("zero stride: " + e.getMessage());
            }
        }
    }

    /**
     * Runs {@code name} with {@code args} (double[] or float[] for pointers) on the CUDA backend and in Java, and
     * prints whether every output element is equal.
     */
    private static void compare(ExecutionContext ctx, List<Integer> devices, String name, Object[] args) {
        BlasFunction f = BlasFunctions.named(name).orElseThrow();
        Object[] onDevice = new Object[args.length];
        Object[] inJava = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            boolean pointer = f.parameters().get(i).pointer();
            onDevice[i] = pointer ? array(ctx, args[i]) : args[i];
            inJava[i] = pointer ? segment(args[i]) : args[i];
        }
        Computation c = ctx.libraries().launch(f, f.parameters(), onDevice);
        devices.add(c.device());
        f.runInJava(inJava);
        int differing = 0;
        int compared = 0;
        for (int i = 0; i < args.length; i++) {
            if (f.parameters().get(i).pointer() && !f.parameters().get(i).access().isReadOnly()) {
                DeviceArray a = (DeviceArray) onDevice[i];
                MemorySegment expected = (MemorySegment) inJava[i];
                for (long e = 0; e < a.elementCount(); e++) {
                    Object got = ctx.read(a, e);
                    Object want = a.elementType() == ElementType.DOUBLE
                            ? expected.getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, e)
                            : (Object) expected.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, e);
                    double tolerance = 1e-5 * Math.max(1, Math.abs(((Number) want).doubleValue()));
                    differing += Math.abs(((Number) got).doubleValue() - ((Number) want).doubleValue()) > tolerance
                            ? 1 : 0;
                    compared++;
                }
            }
        }
        System.out.println(name + ": " + (compared - differing) + "/" + compared + " equal");
    }

    private static DeviceArray array(ExecutionContext ctx, Object values) {
        MemorySegment s = segment(values);
        ElementType t = values instanceof double[] ? ElementType.DOUBLE : ElementType.FLOAT;
        DeviceArray a = ctx.newArray(t, s.byteSize() / t.bytes());
        ctx.copyFromHost(a, s);
        return a;
    }

    private static MemorySegment segment(Object values) {
        return values instanceof double[] d ? MemorySegment.ofArray(d.clone())
                : MemorySegment.ofArray(((float[]) values).clone());
    }

    /** {@code n} doubles: {@code seed}, then a deterministic sequence in [-1, 1] scaled by {@code seed}. */
    private static double[] vector(int n, double seed) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = i == 0 ? seed : seed * Math.sin(i * 0.7 + seed);
        }
        return v;
    }

    private static float[] floats(int n, double seed) {
        double[] d = vector(n, seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) d[i];
        }
        return v;
    }
}
