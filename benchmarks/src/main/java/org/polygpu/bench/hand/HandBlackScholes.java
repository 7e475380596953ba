package org.polygpu.bench.hand;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.StreamHandle;
import org.polygpu.bench.programs.BlackScholes;
import org.polygpu.bench.programs.SeededRandom;
import org.polygpu.bench.programs.Verdict;

/**
 * B&S written by hand on the backend SPI. Each partition is one independent kernel with its own input and output,
 * so an expert deals the partitions round robin over the GPUs and gives each its own stream: copy in, price, copy
 * out. Nothing moves between GPUs, and on one GPU the streams overlap copies with other partitions' kernels.
 */
public final class HandBlackScholes {
    private static final int BLOCK = 256;

    private HandBlackScholes() {
    }

    /** Arguments: see {@link HandMain#run}; default 100000 prices. */
    public static void main(String[] args) {
        HandMain.run("bs", args);
    }

    /** Runs B&S on {@code gpus} emulated GPUs of {@code topology} and validates it as the polygpu program does. */
    public static Verdict run(int n, int partitions, int gpus, String topology) {
        return HandBaselines.run(HandRun.of("bs", n, partitions, gpus, topology)).verdict();
    }

    static Verdict run(HandRun run, HandSetup setup) {
        int n = run.size();
        float[] prices = new SeededRandom(42).floats(n, 20, 120);
        List<MemorySegment> calls = new ArrayList<>();
        Backend b = setup.backend;
        int size = (n + run.partitions() - 1) / run.partitions();
        for (int offset = 0; offset < n; offset += size) {
            int count = Math.min(size, n - offset);
            int device = (offset / size) % setup.gpus();
            StreamHandle stream = b.createStream(device);
            long bytes = (long) count * Float.BYTES;
            DeviceBuffer price = b.allocate(device, bytes);
            DeviceBuffer call = b.allocate(device, bytes);
            setup.copyIn(setup.host(HandVec.slice(prices, offset, count)), price, bytes, stream, "price");
            LaunchConfig config = LaunchConfig.of(Math.max(1, Math.min(64, (count + BLOCK - 1) / BLOCK)), BLOCK);
            setup.launch(device, "black_scholes", config, stream, price, call, count, (float) BlackScholes.STRIKE,
                    (float) BlackScholes.RATE, (float) BlackScholes.VOLATILITY, (float) BlackScholes.YEARS);
            if (run.validate()) {
                MemorySegment out = setup.host(bytes);
                setup.copyOut(call, out, bytes, stream, "call");
                calls.add(out);
            }
        }
        if (!run.validate()) {
            return HandMain.unchecked(run, setup);
        }
        b.synchronizeAll();
        double error = 0;
        for (int q = 0; q < calls.size(); q++) {
            MemorySegment out = calls.get(q);
            for (int i = 0; i < out.byteSize() / Float.BYTES; i++) {
                double v = out.getAtIndex(ValueLayout.JAVA_FLOAT, i);
                error = Math.max(error, Math.abs(v - BlackScholes.callPrice(prices[q * size + i])));
            }
        }
        // The tolerance of the polygpu program, argued there.
        return HandMain.verdict(run, setup, error <= BlackScholes.TOLERANCE, String.format(Locale.ROOT,
                "largest error %.2e (tolerance %s)", error, BlackScholes.TOLERANCE));
    }
}
