package org.polygpu.bench.hand;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.StreamHandle;
import org.polygpu.bench.programs.SeededRandom;
import org.polygpu.bench.programs.Verdict;

/**
 * VEC written by hand on the backend SPI. The partitions are independent and equal, so an expert deals them round
 * robin over the GPUs (partition q on GPU q mod G: the best balance) and gives each its own stream on that GPU, in
 * which it copies x and y in, squares both, reduces, and copies the 8-byte sum back: one stream's order is all the
 * synchronisation a partition needs, and the streams of one GPU overlap one partition's copies with another's
 * kernels. Only the sums come back to the host, as in the polygpu program.
 */
public final class HandVec {
    private static final int BLOCK = 256;

    private HandVec() {
    }

    /** Arguments: see {@link HandMain#run}; default 100000 elements. */
    public static void main(String[] args) {
        HandMain.run("vec", args);
    }

    /** Runs VEC on {@code gpus} emulated GPUs of {@code topology} and validates it as the polygpu program does. */
    public static Verdict run(int n, int partitions, int gpus, String topology) {
        return HandBaselines.run(HandRun.of("vec", n, partitions, gpus, topology)).verdict();
    }

    static Verdict run(HandRun run, HandSetup setup) {
        int n = run.size();
        SeededRandom random = new SeededRandom(42);
        float[] x = random.floats(n, 0, 1, 6);
        float[] y = random.floats(n, 0, 1, 6);
        List<MemorySegment> sums = new ArrayList<>();
        Backend b = setup.backend;
        int size = (n + run.partitions() - 1) / run.partitions();
        for (int offset = 0; offset < n; offset += size) {
            int count = Math.min(size, n - offset);
            int device = (offset / size) % setup.gpus();
            StreamHandle stream = b.createStream(device);
            long bytes = (long) count * Float.BYTES;
            DeviceBuffer xs = b.allocate(device, bytes);
            DeviceBuffer ys = b.allocate(device, bytes);
            DeviceBuffer acc = b.allocate(device, Double.BYTES);
            MemorySegment sum = setup.host(Double.BYTES);
            setup.copyIn(setup.host(slice(x, offset, count)), xs, bytes, stream, "x");
            setup.copyIn(setup.host(slice(y, offset, count)), ys, bytes, stream, "y");
            setup.copyIn(sum, acc, Double.BYTES, stream, "acc");
            LaunchConfig config = LaunchConfig.of(Math.max(1, Math.min(64, (count + BLOCK - 1) / BLOCK)), BLOCK);
            setup.launch(device, "square", config, stream, xs, count);
            setup.launch(device, "square", config, stream, ys, count);
            setup.launch(device, "diff_sum", config, stream, xs, ys, acc, count);
            if (run.validate()) {
                setup.copyOut(acc, sum, Double.BYTES, stream, "acc");
            }
            sums.add(sum);
        }
        if (!run.validate()) {
            return HandMain.unchecked(run, setup);
        }
        b.synchronizeAll();
        double result = 0;
        for (MemorySegment s : sums) {
            result += s.get(ValueLayout.JAVA_DOUBLE, 0);
        }
        double expected = 0;
        for (int i = 0; i < n; i++) {
            expected += (double) x[i] * x[i] - (double) y[i] * y[i];
        }
        // Exact arithmetic, as in the polygpu program (see org.polygpu.bench.programs.Vec).
        return HandMain.verdict(run, setup, result == expected, "sum " + result + " (reference " + expected + ")");
    }

    static float[] slice(float[] values, int offset, int count) {
        float[] out = new float[count];
        System.arraycopy(values, offset, out, 0, count);
        return out;
    }
}
