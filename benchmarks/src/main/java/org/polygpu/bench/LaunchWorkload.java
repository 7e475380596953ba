package org.polygpu.bench;

import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.dag.Dag;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * The launch stream both scheduler benchmarks issue: 8 devices of a {@link NoWorkBackend}, the default policies
 * ({@code async}, {@code with-const}, {@code multigpu-disjoint}, {@code minmax-transfer-time}), the {@code v100x8}
 * bandwidth matrix, and a kernel {@code step(in x, in y, out z, inout w, int n)} launched over a pool of small
 * arrays. Each launch takes four distinct arrays from a fixed pseudo-random table, so launches depend on recent
 * ones, arrays move between devices (copies) and the policy decides where data-less work goes.
 *
 * <p>Deterministic: the same number of launches gives the same schedule. Not thread-safe.
 */
final class LaunchWorkload implements AutoCloseable {
    static final int DEVICES = 8;
    static final int ARRAYS = 32;
    static final int ELEMENTS = 256;
    private static final int TABLE = 4096;

    private final NoWorkBackend backend;
    private final ExecutionContext context;
    private final Kernel kernel;
    private final LaunchConfig config = LaunchConfig.of(1, ELEMENTS);
    private final DeviceArray[][] table = new DeviceArray[TABLE][];
    private final Integer n = ELEMENTS;
    private long issued;

    LaunchWorkload() {
        backend = new NoWorkBackend(DEVICES);
        context = ExecutionContext.create(backend, RuntimeConfig.defaults(), BandwidthMatrixLoader.preset("v100x8"));
        kernel = context.kernel("step", new ModuleImage.Ptx("// no code: the backend does no work"), List.of(
                Parameter.pointer("x", ElementType.FLOAT, Access.READ),
                Parameter.pointer("y", ElementType.FLOAT, Access.READ),
                Parameter.pointer("z", ElementType.FLOAT, Access.WRITE),
                Parameter.pointer("w", ElementType.FLOAT, Access.READ_WRITE),
                Parameter.scalar("n", ElementType.INT)));
        DeviceArray[] arrays = new DeviceArray[ARRAYS];
        for (int i = 0; i < ARRAYS; i++) {
            arrays[i] = context.newArray(ElementType.FLOAT, ELEMENTS);
        }
        long seed = 0x9E3779B97F4A7C15L;
        for (int t = 0; t < TABLE; t++) {
            int[] picked = new int[4];
            for (int k = 0; k < 4; k++) {
                int candidate;
                do {
                    seed ^= seed << 13;
                    seed ^= seed >>> 7;
                    seed ^= seed << 17;
                    candidate = (int) Math.floorMod(seed, (long) ARRAYS);
                } while (contains(picked, k, candidate));
                picked[k] = candidate;
            }
            table[t] = new DeviceArray[] {arrays[picked[0]], arrays[picked[1]], arrays[picked[2]],
                arrays[picked[3]]};
        }
    }

    private static boolean contains(int[] values, int count, int value) {
        for (int i = 0; i < count; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }

    /** Issues the next launch of the stream. */
    Computation launchNext() {
        DeviceArray[] a = table[(int) (issued++ & (TABLE - 1))];
        return context.launch(kernel, config, a[0], a[1], a[2], a[3], n);
    }

    long issued() {
        return issued;
    }

    Dag<Computation> dag() {
        return context.dag();
    }

    NoWorkBackend backend() {
        return backend;
    }

    @Override
    public void close() {
        context.close();
    }
}
