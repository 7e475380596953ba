package org.polygpu.bench;

import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.dag.Dag;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * The launch stream both scheduler benchmarks issue: 8 devices of a {@link NoWorkBackend}, the default policies
 * ({@code async}, {@code with-const}, {@code reuse}, {@code multigpu-disjoint}, {@code minmax-transfer-time}), the
 * {@code v100x8} bandwidth matrix, and a kernel {@code step(in x, in y, out z, inout w, int n)} launched over
 * {@value #GROUPS} groups of 4 small arrays, one chain of work per group.
 *
 * <p>Launch {@code i} uses group {@code i mod GROUPS}, its four arrays in a pseudo-random order; one launch in
 * {@value #CROSS_EVERY} reads its {@code y} from another group instead. Fresh groups spread over the devices (the
 * policy explores round-robin while no device holds data), each chain then stays where its data is, and the
 * cross-group reads copy arrays between devices. With an in-flight window, each launch depends on its group's
 * previous launch (and the cross reads on other chains), so parent streams are reused and events waited.
 *
 * <p>Deterministic: the same number of launches gives the same schedule. Not thread-safe.
 */
final class LaunchWorkload implements AutoCloseable {
    static final int DEVICES = 8;
    static final int GROUPS = 8;
    static final int ARRAYS = GROUPS * 4;
    static final int ELEMENTS = 256;
    static final int CROSS_EVERY = 8;
    private static final int TABLE = 4096;

    private final NoWorkBackend backend;
    private final ExecutionContext context;
    private final Kernel kernel;
    private final LaunchConfig config = LaunchConfig.of(1, ELEMENTS);
    private final DeviceArray[][] table = new DeviceArray[TABLE][];
    private final Integer n = ELEMENTS;
    private long issued;

    /** @param inFlight the backend's in-flight window (see {@link NoWorkBackend}); 0 completes work at once */
    LaunchWorkload(int inFlight) {
        this(inFlight, RuntimeConfig.defaults().deviceSelectionPolicy());
    }

    /** The same launch stream with the device-selection policy named {@code policy}. */
    LaunchWorkload(int inFlight, String policy) {
        backend = new NoWorkBackend(DEVICES, inFlight);
        context = ExecutionContext.create(backend, RuntimeConfig.defaults().withDeviceSelectionPolicy(policy),
                BandwidthMatrixLoader.preset("v100x8"));
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
            int group = t % GROUPS;
            int[] picked = new int[4];
            for (int k = 0; k < 4; k++) {
                int candidate;
                do {
                    seed = next(seed);
                    candidate = group * 4 + (int) Math.floorMod(seed, 4L);
                } while (contains(picked, k, candidate));
                picked[k] = candidate;
            }
            seed = next(seed);
            if (Math.floorMod(seed, (long) CROSS_EVERY) == 0) {
                seed = next(seed);
                int other = (group + 1 + (int) Math.floorMod(seed, (long) GROUPS - 1)) % GROUPS;
                seed = next(seed);
                picked[1] = other * 4 + (int) Math.floorMod(seed, 4L);
            }
            table[t] = new DeviceArray[] {arrays[picked[0]], arrays[picked[1]], arrays[picked[2]],
                arrays[picked[3]]};
        }
    }

    private static long next(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        return x ^ x << 17;
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

    /** Streams the context created for computations, on every device. */
    int streamCount() {
        int n = 0;
        for (int d = 0; d < DEVICES; d++) {
            n += context.streamCount(d);
        }
        return n;
    }

    NoWorkBackend backend() {
        return backend;
    }

    @Override
    public void close() {
        context.close();
    }
}
