package org.polygpu.bench;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.config.DependencyPolicy;
import org.polygpu.config.RetrieveNewStreamPolicy;
import org.polygpu.config.RetrieveParentStreamPolicy;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * The DAGs of GrCUDA's multi-GPU scheduler tests, written in the notation of GrCUDA's comments: a kernel is a list of
 * array numbers, {@code "1c 2"} reading array 1 (const) and reading and writing array 2. They are launched on a
 * {@link NoWorkBackend} where nothing finishes by itself, as in GrCUDA's mock context, and {@link #devices} returns
 * the device of every kernel in launch order. A step {@code "sync 3"} reads array 3 on the host, which waits for its
 * writers, as GrCUDA's host synchronizations do, then polls, which finds every earlier computation done (the backend
 * completes all events recorded before an awaited one); it has no device. GrCUDA's trailing synchronizations are left
 * out: nothing is launched after them.
 *
 * @param sizes   the arrays' lengths in floats; array {@code i} is number {@code i + 1}
 * @param kernels the kernels in launch order
 */
record GrcudaDags(int[] sizes, List<String> kernels) {
    /** The image pipeline: blur, sobel, extend, unsharpen, combine (GrCUDA's {@code imageMockComputation}). */
    static GrcudaDags image() {
        return new GrcudaDags(new int[] {10, 10, 10, 10, 10, 10, 1, 1, 10, 10, 10}, List.of(
                "1c 2", "1c 3", "1c 4", "2c 5", "3c 6", "4c 7", "4c 8", "4 7 8", "1c 4 9", "9c 3c 6c 10",
                "10c 2c 5c 11"));
    }

    /** Two iterations of HITS (GrCUDA's {@code hitsMockComputation}). */
    static GrcudaDags hits() {
        return hits(2);
    }

    /** {@code iterations} iterations of HITS, six kernels each. */
    static GrcudaDags hits(int iterations) {
        List<String> kernels = new ArrayList<>();
        for (int i = 0; i < iterations; i++) {
            kernels.addAll(List.of("1c 2", "3c 4", "2c 5", "4c 6", "2c 5c 3", "4c 6c 1"));
        }
        return new GrcudaDags(new int[] {10, 10, 10, 10, 1, 1}, kernels);
    }

    /** Four chains of two kernels, joined in pairs, then four kernels reading 1 (GrCUDA's {@code manyKernels}). */
    static GrcudaDags manyKernels() {
        return new GrcudaDags(new int[] {10, 10, 10, 10}, List.of(
                "1", "2", "3", "4", "1", "2", "3", "4", "1 2", "3 4", "1c", "1c 2", "1c 3", "1c 4"));
    }

    /** {@code X, Y -> Z -> A, B} (GrCUDA's {@code forkJoinMockComputation}). */
    static GrcudaDags forkJoin() {
        return new GrcudaDags(new int[] {10, 10}, List.of("1", "2", "1 2", "1", "2"));
    }

    /** The four join pipelines of GrCUDA's min-transfer-size tests ({@code joinPipeline..4MockComputation}). */
    static GrcudaDags join(int variant) {
        int[] sizes = {10, 10, 10, 100};
        return switch (variant) {
            case 1 -> new GrcudaDags(sizes, List.of("1c", "2c", "3c", "4c", "1 2", "1 2 3", "1 2 4"));
            case 2 -> new GrcudaDags(sizes, List.of("1c", "2c", "3c", "4c", "1c 2", "3 4", "1 2 3"));
            case 3 -> new GrcudaDags(sizes, List.of("1", "2c", "3c", "4c", "1c 2", "3 4", "2 3"));
            case 4 -> new GrcudaDags(sizes, List.of("1c", "2c", "3c", "4c", "1c 2", "1 3 4", "1 3"));
            default -> throw new IllegalArgumentException("join variant must be 1..4, got " + variant);
        };
    }

    /**
     * VEC over 16 partitions of 1000 floats: per partition {@code x -> x1}, {@code y -> y1}, {@code x1, y1 -> r}
     * (GrCUDA's {@code vecMultiGPUMockComputation}). Arrays per partition: x, y, x1, y1, r.
     */
    static GrcudaDags vec() {
        int partitions = 16;
        int[] sizes = new int[5 * partitions];
        List<String> kernels = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            int x = 5 * p + 1;
            System.arraycopy(new int[] {1000, 1000, 1000, 1000, 1}, 0, sizes, 5 * p, 5);
            kernels.add(x + "c " + (x + 2));
            kernels.add((x + 1) + "c " + (x + 3));
            kernels.add((x + 2) + "c " + (x + 3) + "c " + (x + 4));
        }
        return new GrcudaDags(sizes, kernels);
    }

    /** B&S over 24 partitions of 1000 floats, {@code x -> y} each (GrCUDA's {@code bsMultiGPUMockComputation}). */
    static GrcudaDags blackScholes() {
        int partitions = 24;
        int[] sizes = new int[2 * partitions];
        List<String> kernels = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            sizes[2 * p] = 1000;
            sizes[2 * p + 1] = 1000;
            kernels.add((2 * p + 1) + "c " + (2 * p + 2));
        }
        return new GrcudaDags(sizes, kernels);
    }

    /**
     * MUL over 16 partitions (GrCUDA's {@code mmulMultiGPUMockComputation}): {@code x_i, y -> z_i}, then every
     * {@code z_i} copied into {@code z}. Arrays: x_1..x_16 (1000 x 62), z_1..z_16 (62), y, z (1000).
     */
    static GrcudaDags matrixVector() {
        int partitions = 16;
        int[] sizes = new int[2 * partitions + 2];
        List<String> kernels = new ArrayList<>();
        int y = 2 * partitions + 1;
        for (int p = 1; p <= partitions; p++) {
            sizes[p - 1] = 1000 * 62;
            sizes[partitions + p - 1] = 62;
            kernels.add(p + "c " + y + "c " + (partitions + p));
        }
        sizes[y - 1] = 1000;
        sizes[y] = 1000;
        for (int p = 1; p <= partitions; p++) {
            kernels.add((y + 1) + " " + (partitions + p) + "c");
        }
        return new GrcudaDags(sizes, kernels);
    }

    /**
     * Three iterations of CG over 16 partitions of the matrix (GrCUDA's {@code cgMultiGPUMockComputation}, with its
     * const corrections, so that the partitions writing disjoint parts of {@code r} and {@code y} do not depend on
     * one another). Arrays: A_1..A_16 (62 x 1000), then x, b, p, r, y (1000), t1, t2 (1). {@code "sync 22 23"} is a
     * host read of arrays 22 and 23, which waits for their writers.
     */
    static GrcudaDags conjugateGradient() {
        int partitions = 16;
        int x = partitions + 1;
        int b = x + 1;
        int p = x + 2;
        int r = x + 3;
        int y = x + 4;
        int t1 = x + 5;
        int t2 = x + 6;
        int[] sizes = new int[t2];
        List<String> kernels = new ArrayList<>();
        for (int i = 1; i <= partitions; i++) {
            sizes[i - 1] = 62 * 1000;
            kernels.add(Integer.toString(i));
            kernels.add(i + "c " + x + "c " + b + "c " + r + "c");
        }
        for (int a = x; a <= y; a++) {
            sizes[a - 1] = 1000;
        }
        sizes[t1 - 1] = 1;
        sizes[t2 - 1] = 1;
        kernels.add(p + " " + r);
        kernels.add(r + "c " + t1);
        for (int iteration = 0; iteration < 3; iteration++) {
            for (int i = 1; i <= partitions; i++) {
                kernels.add(i + "c " + p + "c " + y + "c");
            }
            kernels.addAll(List.of(p + "c " + y + " " + t2, "sync " + t1 + " " + t2, x + " " + x + "c " + p + "c",
                    r + " " + r + "c " + y + "c", r + "c " + t1, "sync " + t1, p + " " + r + "c " + p + "c"));
        }
        return new GrcudaDags(sizes, kernels);
    }

    /** Ten kernels on ten arrays of their own. */
    static GrcudaDags independent() {
        List<String> kernels = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            kernels.add(Integer.toString(i));
        }
        return new GrcudaDags(new int[] {10, 10, 10, 10, 10, 10, 10, 10, 10, 10}, kernels);
    }

    /**
     * What one replay gives: each kernel's device and stream (numbered per device, in order of creation), and the
     * streams created on all devices.
     */
    record Placement(List<Integer> devices, List<Integer> streamIds, int streams) {
    }

    /** The rules of GrCUDA's mock context: dependencies {@code with-const}, a new stream for every new chain. */
    static RuntimeConfig config(String policy, RetrieveParentStreamPolicy parents) {
        return config(policy, parents, DependencyPolicy.WITH_CONST);
    }

    /** GrCUDA's mock context with the given dependency rule. */
    static RuntimeConfig config(String policy, RetrieveParentStreamPolicy parents, DependencyPolicy dependencies) {
        return RuntimeConfig.defaults().withDeviceSelectionPolicy(policy).withParentStreamPolicy(parents)
                .withNewStreamPolicy(RetrieveNewStreamPolicy.ALWAYS_NEW).withDependencyPolicy(dependencies);
    }

    /** Launches the kernels on {@code gpus} devices under {@code config}. */
    Placement place(int gpus, RuntimeConfig config) {
        try (NoWorkBackend backend = new NoWorkBackend(gpus, 1 << 20);
             ExecutionContext ctx = ExecutionContext.create(backend, config, BandwidthMatrixLoader.preset("v100x8"))) {
            List<DeviceArray> arrays = new ArrayList<>();
            for (int size : sizes) {
                arrays.add(ctx.newArray(ElementType.FLOAT, size));
            }
            List<Integer> devices = new ArrayList<>();
            List<Integer> streamIds = new ArrayList<>();
            for (String kernel : kernels) {
                if (kernel.startsWith("sync ")) {
                    for (String number : kernel.substring(5).split(" ")) {
                        ctx.read(arrays.get(Integer.parseInt(number) - 1), 0);
                    }
                    ctx.poll();
                    continue;
                }
                Computation c = launch(ctx, arrays, kernel);
                devices.add(c.device());
                streamIds.add(c.streamId());
            }
            int total = 0;
            for (int d = 0; d < gpus; d++) {
                total += ctx.streamCount(d);
            }
            return new Placement(devices, streamIds, total);
        }
    }

    private static Computation launch(ExecutionContext ctx, List<DeviceArray> arrays, String kernel) {
        String[] args = kernel.split(" ");
        List<Parameter> params = new ArrayList<>();
        Object[] values = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            boolean constant = args[i].endsWith("c");
            int number = Integer.parseInt(constant ? args[i].substring(0, args[i].length() - 1) : args[i]);
            params.add(Parameter.pointer("p" + i, ElementType.FLOAT, constant ? Access.READ : Access.READ_WRITE));
            values[i] = arrays.get(number - 1);
        }
        Kernel k = ctx.kernel("k_" + kernel.replace(' ', '_'), new ModuleImage.Ptx("// nothing runs"), params);
        return ctx.launch(k, LaunchConfig.of(1, 32), values);
    }
}
