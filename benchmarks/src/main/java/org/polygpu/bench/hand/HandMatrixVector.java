package org.polygpu.bench.hand;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.StreamHandle;
import org.polygpu.bench.programs.MatrixVector;
import org.polygpu.bench.programs.SeededRandom;
import org.polygpu.bench.programs.Verdict;

/**
 * MUL written by hand on the backend SPI. Every partition needs the whole vector x, so an expert sends x over the
 * host link once, to GPU 0, and broadcasts it from there over the GPU links (faster than the host link, and the
 * host link stays free for the matrix blocks); an event per GPU says when its copy of x is there. The row blocks
 * are dealt round robin, each in its own stream on its GPU: copy the block in, wait for x, multiply, copy the
 * result out.
 */
public final class HandMatrixVector {
    private static final int BLOCK = 256;

    private HandMatrixVector() {
    }

    /** Arguments: see {@link HandMain#run}; default 2000 rows (the matrix is rows x rows). */
    public static void main(String[] args) {
        HandMain.run("mul", args);
    }

    /** Runs MUL on {@code gpus} emulated GPUs of {@code topology} and validates it as the polygpu program does. */
    public static Verdict run(int n, int partitions, int gpus, String topology) {
        return HandBaselines.run(HandRun.of("mul", n, partitions, gpus, topology)).verdict();
    }

    static Verdict run(HandRun run, HandSetup setup) {
        int n = run.size();
        SeededRandom random = new SeededRandom(42);
        float[] x = random.floats(n, -1, 1);
        int size = (n + run.partitions() - 1) / run.partitions();
        List<float[]> blocks = new ArrayList<>();
        for (int offset = 0; offset < n; offset += size) {
            blocks.add(random.floats(Math.min(size, n - offset) * n, -1, 1));
        }
        Backend b = setup.backend;
        List<DeviceBuffer> xs = new ArrayList<>();
        List<EventHandle> ready = new ArrayList<>();
        broadcast(setup, setup.host(x), (long) n * Float.BYTES, "x", xs, ready);
        List<MemorySegment> results = new ArrayList<>();
        for (int q = 0; q < blocks.size(); q++) {
            int rows = blocks.get(q).length / n;
            int device = q % setup.gpus();
            StreamHandle stream = b.createStream(device);
            long blockBytes = (long) rows * n * Float.BYTES;
            DeviceBuffer a = b.allocate(device, blockBytes);
            DeviceBuffer z = b.allocate(device, (long) rows * Float.BYTES);
            setup.copyIn(setup.host(blocks.get(q)), a, blockBytes, stream, "a");
            b.streamWaitEvent(stream, ready.get(device));
            LaunchConfig config = LaunchConfig.of(Math.max(1, Math.min(64, (rows + BLOCK - 1) / BLOCK)), BLOCK);
            setup.launch(device, "matvec", config, stream, a, xs.get(device), z, rows, n);
            if (run.validate()) {
                MemorySegment out = setup.host((long) rows * Float.BYTES);
                setup.copyOut(z, out, (long) rows * Float.BYTES, stream, "z");
                results.add(out);
            }
        }
        if (!run.validate()) {
            return HandMain.unchecked(run, setup);
        }
        b.synchronizeAll();
        double worst = 0;
        for (int q = 0; q < blocks.size(); q++) {
            MemorySegment out = results.get(q);
            for (int r = 0; r < out.byteSize() / Float.BYTES; r++) {
                worst = Math.max(worst, MatrixVector.errorOverBound(blocks.get(q), x, r,
                        out.getAtIndex(ValueLayout.JAVA_FLOAT, r)));
            }
        }
        return HandMain.verdict(run, setup, worst <= 1,
                String.format(Locale.ROOT, "largest error %.3f of its rounding bound", worst));
    }

    /**
     * Puts {@code bytes} of {@code host} on every GPU: over the host link to GPU 0, then from GPU 0 to each other GPU
     * over its link, each copy in a stream of its destination. Adds each GPU's buffer to {@code buffers} and an event
     * telling when it has arrived to {@code ready}, by device.
     */
    static void broadcast(HandSetup setup, MemorySegment host, long bytes, String name, List<DeviceBuffer> buffers,
                          List<EventHandle> ready) {
        Backend b = setup.backend;
        DeviceBuffer first = null;
        EventHandle arrived = null;
        for (int d = 0; d < setup.gpus(); d++) {
            StreamHandle stream = b.createStream(d);
            DeviceBuffer copy = b.allocate(d, bytes);
            if (d == 0) {
                setup.copyIn(host, copy, bytes, stream, name);
                first = copy;
            } else {
                b.streamWaitEvent(stream, arrived);
                setup.copyPeer(first, copy, stream, name);
            }
            EventHandle event = b.createEvent(d);
            b.recordEvent(event, stream);
            arrived = d == 0 ? event : arrived;
            buffers.add(copy);
            ready.add(event);
        }
    }
}
