package org.polygpu.bench.hand;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.StreamHandle;
import org.polygpu.bench.programs.ConjugateGradient;
import org.polygpu.bench.programs.SeededRandom;
import org.polygpu.bench.programs.Verdict;

/**
 * CG written by hand on the backend SPI. The partitions are dealt in contiguous runs (partition q on GPU
 * q G / P), so that each GPU owns one contiguous stretch of rows; each partition keeps its block of A and its slices
 * of x, r and y on its GPU and has its own stream there, and every GPU keeps a whole replica of the search direction
 * p, which every matvec reads whole.
 *
 * <p>What crosses GPUs goes on one exchange stream per GPU ({@link Collectives}), ordered by the stream rather than
 * by events wherever the order allows. The two reductions of an iteration (p.Ap and r.r) add each partition's part
 * on its GPU, then combine the GPUs' sums in a tree of log2(G) one-float copies and give the total to every GPU, so
 * that every partition's next kernel finds its scalars on its own GPU. The new p is exchanged between the GPUs each
 * iteration: since the SPI copies whole buffers, p is not gathered slice by slice but passed along the GPUs in order
 * (GPU d takes GPU d - 1's replica, which holds the new slices of GPUs 0 to d - 1, and updates its own slices), then
 * the last GPU's replica, now whole, is copied to the others; the partitions' streams wait for it with an event.
 */
public final class HandConjugateGradient {
    private static final int BLOCK = 256;

    private HandConjugateGradient() {
    }

    /** Arguments: see {@link HandMain#run}; default n = 2000, 10 iterations. */
    public static void main(String[] args) {
        HandMain.run("cg", args);
    }

    /** Runs CG on {@code gpus} emulated GPUs of {@code topology} and validates it as the polygpu program does. */
    public static Verdict run(int n, int partitions, int gpus, String topology, int iterations) {
        return HandBaselines.run(HandRun.of("cg", n, partitions, gpus, topology).withIterations(iterations))
                .verdict();
    }

    static Verdict run(HandRun run, HandSetup setup) {
        int n = run.size();
        // The polygpu program's inputs, drawn in the same order from the same seed.
        SeededRandom random = new SeededRandom(42);
        float[][] a = new float[n][n];
        for (int i = 0; i < n; i++) {
            a[i][i] = 2;
            for (int j = i + 1; j < n; j++) {
                a[i][j] = (float) (random.uniform(24) / n);
                a[j][i] = a[i][j];
            }
        }
        float[] rhs = random.floats(n, 0, 1);
        CgPartitions parts = new CgPartitions(setup, n, run.partitions());
        parts.load(a, rhs);
        Iterations state = new Iterations(setup, parts);
        state.start(rhs);
        for (int k = 0; k < run.iterations(); k++) {
            state.iterate();
        }
        if (!run.validate()) {
            return HandMain.unchecked(run, setup);
        }
        List<MemorySegment> xs = parts.readX();
        setup.backend.synchronizeAll();
        double[] expected = ConjugateGradient.reference(a, rhs, run.iterations());
        double largest = Arrays.stream(expected).map(Math::abs).max().orElseThrow();
        double error = 0;
        for (int q = 0; q < xs.size(); q++) {
            for (int i = 0; i < parts.rows(q); i++) {
                double x = xs.get(q).getAtIndex(ValueLayout.JAVA_FLOAT, i);
                error = Math.max(error, Math.abs(x - expected[parts.offset(q) + i]) / largest);
            }
        }
        return HandMain.verdict(run, setup, error <= ConjugateGradient.TOLERANCE, String.format(Locale.ROOT,
                "%d iterations, largest error %.2e of max|x| (tolerance %s)", run.iterations(), error,
                ConjugateGradient.TOLERANCE));
    }

    /** The iterations' state: p's replicas, the scalars on every GPU, and the events the next step waits for. */
    private static final class Iterations {
        private final HandSetup setup;
        private final Backend b;
        private final CgPartitions parts;
        private final Collectives exchange;
        private final List<DeviceBuffer> p = new ArrayList<>();
        private final List<DeviceBuffer> pap = new ArrayList<>();
        private List<DeviceBuffer> rr = new ArrayList<>();
        private List<DeviceBuffer> rrNew = new ArrayList<>();
        private List<EventHandle> pReady;

        Iterations(HandSetup setup, CgPartitions parts) {
            this.setup = setup;
            this.b = setup.backend;
            this.parts = parts;
            this.exchange = new Collectives(setup, parts.gpus());
            for (int d = 0; d < parts.gpus(); d++) {
                p.add(b.allocate(d, (long) parts.n() * Float.BYTES));
                pap.add(b.allocate(d, Float.BYTES));
                rr.add(b.allocate(d, Float.BYTES));
                rrNew.add(b.allocate(d, Float.BYTES));
            }
        }

        /** p = b on every GPU, and rr = r.r with r = b. */
        void start(float[] rhs) {
            setup.copyIn(setup.host(rhs), p.get(0), p.get(0).bytes(), exchange.stream(0), "p");
            pReady = exchange.broadcast(0, p, "p");
            List<EventHandle> written = new ArrayList<>();
            for (int q = 0; q < parts.count(); q++) {
                parts.launch(q, "norm2", 1, parts.r(q), parts.part(q), parts.rows(q));
                written.add(parts.record(q));
            }
            exchange.sum(parts.parts(), parts.devices(), written, rr);
        }

        void iterate() {
            List<EventHandle> written = new ArrayList<>();
            for (int q = 0; q < parts.count(); q++) {
                int d = parts.device(q);
                b.streamWaitEvent(parts.stream(q), pReady.get(d));
                parts.launch(q, "matvec", blocks(parts.rows(q)), parts.a(q), p.get(d), parts.y(q), parts.rows(q),
                        parts.n());
                parts.launch(q, "dot_slice", 1, p.get(d), parts.offset(q), parts.y(q), parts.part(q), parts.rows(q));
                written.add(parts.record(q));
            }
            List<EventHandle> papReady = exchange.sum(parts.parts(), parts.devices(), written, pap);
            written.clear();
            for (int q = 0; q < parts.count(); q++) {
                int d = parts.device(q);
                b.streamWaitEvent(parts.stream(q), papReady.get(d));
                parts.launch(q, "update_xr", blocks(parts.rows(q)), parts.x(q), parts.r(q), p.get(d),
                        parts.offset(q), parts.y(q), rr.get(d), pap.get(d), parts.rows(q));
                parts.launch(q, "norm2", 1, parts.r(q), parts.part(q), parts.rows(q));
                written.add(parts.record(q));
            }
            exchange.sum(parts.parts(), parts.devices(), written, rrNew);
            updateP();
            List<DeviceBuffer> next = rrNew;
            rrNew = rr;
            rr = next;
        }

        /** p = r + (rrNew / rr) p, slice by slice, passed along the GPUs and then copied from the last to the rest. */
        private void updateP() {
            EventHandle previous = null;
            for (int d = 0; d < parts.gpus(); d++) {
                StreamHandle stream = exchange.stream(d);
                if (d > 0) {
                    b.streamWaitEvent(stream, previous);
                    setup.copyPeer(p.get(d - 1), p.get(d), stream, "p");
                }
                for (int q = 0; q < parts.count(); q++) {
                    if (parts.device(q) == d) {
                        setup.launch(d, "update_p", LaunchConfig.of(blocks(parts.rows(q)), BLOCK), stream, p.get(d),
                                parts.offset(q), parts.r(q), rrNew.get(d), rr.get(d), parts.rows(q));
                    }
                }
                previous = d + 1 < parts.gpus() ? exchange.record(d) : null;
            }
            pReady = exchange.broadcast(parts.gpus() - 1, p, "p");
        }
    }

    /** Enough blocks of 256 threads for {@code n} rows, at most 64, as the polygpu program. */
    static int blocks(long n) {
        return (int) Math.max(1, Math.min(64, (n + BLOCK - 1) / BLOCK));
    }
}
