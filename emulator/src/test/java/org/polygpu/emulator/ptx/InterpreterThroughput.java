package org.polygpu.emulator.ptx;

import java.util.Locale;

/**
 * The interpreter's speed in thread-instructions per second, with 1 and 2 worker threads: on memory-bound vector
 * kernels (vector add, the corpus's grid-stride vector square), the arithmetic-heavy Black-Scholes kernel and the
 * corpus's CSR SpMV; on the corpus's classic kernels ({@link CorpusWorkloads}: reduction, scan, histogram, transpose,
 * matrixMul, bitonic sort, n-body), with their geometric mean; and the cost of a small launch through the emulated
 * backend.
 *
 * <p>Run after {@code mvn -pl emulator -am verify -DskipTests}, from the project root:
 * <pre>
 * java -cp emulator/target/test-classes:emulator/target/classes:runtime/target/classes \
 *     org.polygpu.emulator.ptx.InterpreterThroughput [elements [seconds [only]]]
 * </pre>
 * (default 4 Mi elements for the vector kernels, 3 seconds of measurement per line; {@code only} restricts the run to
 * the workloads whose name contains it, {@code corpus} to the classic kernels). Prints one line per kernel and thread
 * count, and the geometric mean of the classic kernels per thread count.
 */
public final class InterpreterThroughput {
    private InterpreterThroughput() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 22;
        seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        only = args.length > 2 ? args[2] : "";
        if (only.isEmpty()) {
            smallLaunches();
        }
        for (int threads : new int[] {1, 2}) {
            try (TestDevice d = new TestDevice(threads)) {
                double logWall = 0;
                double logCpu = 0;
                int count = 0;
                for (CorpusWorkloads.Workload w : CorpusWorkloads.on(d)) {
                    if (only.isEmpty() || only.equals("corpus") || w.name().contains(only)) {
                        double[] rates = measure(w.name(), threads, w.run());
                        logWall += Math.log(rates[0]);
                        logCpu += Math.log(rates[1]);
                        count++;
                    }
                }
                if (count > 0) {
                    System.out.println(String.format(Locale.ROOT, "%-14s threads=%d  %8.1f M thread-instr/s  %8.1f M "
                            + "per CPU-second  (geometric mean of %d classic kernels)", "geomean", threads,
                            Math.exp(logWall / count), Math.exp(logCpu / count), count));
                }
            }
        }
        if (!only.isEmpty()) {
            return;
        }
        PtxModule vector = TestDevice.module("vector_add.ptx");
        PtxModule bs = TestDevice.module("blackscholes.ptx");
        PtxModule squares = TestDevice.module("/org/polygpu/emulator/corpus/ptx/vector_squares.ptx");
        PtxModule cg = TestDevice.module("/org/polygpu/emulator/corpus/ptx/conjugate_gradient.ptx");
        int rows = n / 16;
        int[] rowPtr = new int[rows + 1];
        int[] cols = new int[rows * 16];
        java.util.Random random = new java.util.Random(5);
        for (int r = 0; r < rows; r++) {
            int count = random.nextInt(17);
            rowPtr[r + 1] = rowPtr[r] + count;
            for (int k = rowPtr[r]; k < rowPtr[r + 1]; k++) {
                cols[k] = random.nextInt(rows);
            }
        }
        for (int threads : new int[] {1, 2}) {
            try (TestDevice d = new TestDevice(threads)) {
                float[] data = new float[n];
                for (int i = 0; i < n; i++) {
                    data[i] = 60f + (i % 1000) * 0.08f;
                }
                long x = d.floats(data);
                long y = d.floats(data);
                long z = d.allocate(4L * n);
                int grid = (n + 255) / 256;
                measure("vadd", threads, () -> d.launch(vector, "vadd", grid, 256, x, y, z, n));
                measure("vector square", threads, () -> d.launch(squares, "square", 160, 256, x, z, n));
                measure("black-scholes", threads,
                        () -> d.launch(bs, "bs", 160, 256, x, z, n, 0.02f, 0.3f, 1.5f, 100f));
                long dRowPtr = d.ints(rowPtr);
                long dCols = d.ints(cols);
                measure("spmv csr", threads,
                        () -> d.launch(cg, "spmv_csr", (rows + 255) / 256, 256, dRowPtr, dCols, x, y, z, rows));
            }
        }
    }

    /** Launch overhead: many one-block launches of vector add through the emulated backend. */
    private static void smallLaunches() {
        var topology = new org.polygpu.topology.BandwidthMatrix(new double[][] {{100, 10}, {10, 0}});
        var ptx = new org.polygpu.backend.ModuleImage.Ptx(TestDevice.fixture("vector_add.ptx"));
        try (var b = org.polygpu.emulator.EmulatedBackend.builder().topology(topology).build()) {
            var vadd = b.function(b.loadModule(0, ptx), "vadd");
            var buffer = b.allocate(0, 4 * 256);
            var stream = b.createStream(0);
            Object[] arguments = {buffer, buffer, buffer, 256};
            var config = org.polygpu.backend.LaunchConfig.of(1, 256);
            for (int round = 0; round < 2; round++) {
                int launches = 20_000;
                long start = System.nanoTime();
                for (int i = 0; i < launches; i++) {
                    b.launch(vadd, config, arguments, stream, org.polygpu.backend.OperationLabel.NONE);
                }
                b.synchronizeAll();
                double micros = (System.nanoTime() - start) / 1e3 / launches;
                if (round == 1) {
                    System.out.println(String.format(Locale.ROOT, "%-14s %.1f us per launch (1 block of 256 threads, "
                            + "through EmulatedBackend)", "small launch", micros));
                }
            }
        }
    }

    /** The process's CPU time, which tells how much of the machine the run had when other work shares it. */
    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }

    /** Seconds of measurement per kernel and thread count. */
    private static double seconds;
    /** Workload name filter; empty for everything. */
    private static String only;

    /**
     * Prints and returns the thread-instructions per second, in millions, of repeated runs after a warm-up: by the
     * wall clock, and per second of the process's CPU time.
     */
    private static double[] measure(String name, int threads, java.util.function.Supplier<KernelCounters> run) {
        for (int i = 0; i < 3; i++) {
            run.get(); // warm-up: JIT compilation
        }
        long instructions = 0;
        long cpuStart = cpuNanos();
        long start = System.nanoTime();
        int runs = 0;
        while (System.nanoTime() - start < seconds * 1e9 || runs < 3) {
            instructions += run.get().threadInstructions();
            runs++;
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        double cpu = (cpuNanos() - cpuStart) / 1e9;
        double rate = instructions / elapsed / 1e6;
        double perCpu = instructions / cpu / 1e6;
        System.out.println(String.format(Locale.ROOT, "%-14s threads=%d  %8.1f M thread-instr/s  %8.1f M per "
                + "CPU-second  (%d runs, %.1f M thread-instr each)", name, threads, rate, perCpu, runs,
                instructions / 1e6 / runs));
        return new double[] {rate, perCpu};
    }
}
