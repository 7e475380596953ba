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
import org.polygpu.backend.OperationLabel;
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

    /** Arguments: [rows=2000] [partitions=16] [gpus=4] [topology=v100x8] (the matrix is rows x rows). */
    public static void main(String[] args) {
        HandMain.run(args, 2000, HandMatrixVector::run);
    }

    /** Runs MUL on {@code gpus} emulated GPUs of {@code topology} and validates it as the polygpu program does. */
    public static Verdict run(int n, int partitions, int gpus, String topology) {
        SeededRandom random = new SeededRandom(42);
        float[] x = random.floats(n, -1, 1);
        int size = (n + partitions - 1) / partitions;
        List<float[]> blocks = new ArrayList<>();
        for (int offset = 0; offset < n; offset += size) {
            blocks.add(random.floats(Math.min(size, n - offset) * n, -1, 1));
        }
        try (HandSetup setup = new HandSetup(gpus, topology, "mul")) {
            Backend b = setup.backend;
            long vectorBytes = (long) n * Float.BYTES;
            OperationLabel broadcast = new OperationLabel(-1, "x");
            List<DeviceBuffer> xs = new ArrayList<>();
            List<EventHandle> ready = new ArrayList<>();
            for (int d = 0; d < setup.gpus(); d++) {
                StreamHandle stream = b.createStream(d);
                DeviceBuffer copy = b.allocate(d, vectorBytes);
                if (d == 0) {
                    b.copyHostToDevice(setup.host(x), copy, vectorBytes, stream, broadcast);
                } else {
                    b.streamWaitEvent(stream, ready.get(0));
                    b.copyDeviceToDevice(xs.get(0), copy, vectorBytes, stream, broadcast);
                }
                EventHandle event = b.createEvent(d);
                b.recordEvent(event, stream);
                xs.add(copy);
                ready.add(event);
            }
            List<MemorySegment> results = new ArrayList<>();
            for (int q = 0; q < blocks.size(); q++) {
                int rows = blocks.get(q).length / n;
                int device = q % setup.gpus();
                StreamHandle stream = b.createStream(device);
                long blockBytes = (long) rows * n * Float.BYTES;
                DeviceBuffer a = b.allocate(device, blockBytes);
                DeviceBuffer z = b.allocate(device, (long) rows * Float.BYTES);
                MemorySegment out = setup.host((long) rows * Float.BYTES);
                OperationLabel label = new OperationLabel(q, "matvec");
                b.copyHostToDevice(setup.host(blocks.get(q)), a, blockBytes, stream, label);
                b.streamWaitEvent(stream, ready.get(device));
                LaunchConfig config = LaunchConfig.of(Math.max(1, Math.min(64, (rows + BLOCK - 1) / BLOCK)), BLOCK);
                b.launch(setup.function(device, "matvec"), config, new Object[] {a, xs.get(device), z, rows, n},
                        stream, label);
                b.copyDeviceToHost(z, out, (long) rows * Float.BYTES, stream, label);
                results.add(out);
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
            return HandMain.verdict("mul", n, partitions, setup, worst <= 1,
                    String.format(Locale.ROOT, "largest error %.3f of its rounding bound", worst));
        }
    }
}
