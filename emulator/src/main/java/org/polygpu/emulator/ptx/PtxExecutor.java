package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.polygpu.backend.BackendException;

/**
 * The executor of kernel launches on the SIMT interpreter, spreading the CTAs of a launch over {@code parallelism}
 * threads: the calling thread and a pool of {@code parallelism - 1} daemon threads, created on first need and ended
 * after 10 s idle. Results are deterministic for race-free kernels; global atomics are real atomics across threads (so
 * the order of floating-point atomic additions, and hence their rounding, may vary, as on a GPU). Kernels whose
 * instruction counts would depend on CTA interleaving (global {@code atom.cas}/{@code atom.exch} retry loops) run their
 * CTAs one at a time, in order, so that their counters and timing stay deterministic.
 *
 * <p>Lifecycle: usable until {@link #close()}, which stops the pool. Launches are serialised (one at a time); each
 * worker reuses its buffers from launch to launch.
 */
public final class PtxExecutor implements AutoCloseable {
    private final int parallelism;
    private final WorkerBuffers[] buffers;
    private ExecutorService pool;

    /** @param parallelism threads running the CTAs of one launch, at least 1 */
    public PtxExecutor(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        }
        this.parallelism = parallelism;
        this.buffers = new WorkerBuffers[parallelism];
        for (int i = 0; i < parallelism; i++) {
            buffers[i] = new WorkerBuffers();
        }
    }

    public int parallelism() {
        return parallelism;
    }

    /**
     * Executes {@code launch} to completion: its loads, stores and atomics act on the launch's memory now.
     *
     * <p>What the kernel printed goes to the launch's {@link PtxLaunch#output()} once, in CTA order, also when the
     * launch fails.
     *
     * @return the launch's counters
     * @throws BackendException on a memcheck violation (naming kernel, block, thread, address, size and PTX line), a
     *                          trap, or an exhausted instruction budget; the memory holds what the CTAs that ran wrote
     */
    public KernelCounters run(PtxLaunch launch) {
        return run(launch, Long.MAX_VALUE);
    }

    /**
     * Executes at most {@code sampleCtas} CTAs of {@code launch}, spread evenly over the grid (all of them when the
     * grid has no more), and extrapolates the counters to the whole grid ({@link KernelCounters#ctas()} is then the
     * grid's). The memory holds what the CTAs that ran wrote: the other CTAs' outputs are not computed.
     *
     * @throws BackendException as {@link #run(PtxLaunch)}
     */
    public synchronized KernelCounters run(PtxLaunch launch, long sampleCtas) {
        if (sampleCtas < 1) {
            throw new IllegalArgumentException("sampleCtas must be positive, got " + sampleCtas);
        }
        KernelProgram program = launch.module().program(launch.kernel());
        LaunchState state = new LaunchState(program, launch, sampleCtas);
        int workers = program.orderedCtas() ? 1 : (int) Math.min(parallelism, state.sampled);
        List<CtaRunner> runners = workers == 1 ? List.of(work(state, 0)) : runParallel(state, workers);
        String printed = state.output();
        if (!printed.isEmpty()) {
            launch.output().accept(printed);
        }
        BackendException failure = state.failure();
        if (failure != null) {
            throw failure;
        }
        InstructionClasses classes = new InstructionClasses(program.code());
        KernelCounters total = KernelCounters.ZERO;
        Map<Long, Long> hot = new HashMap<>();
        for (CtaRunner r : runners) {
            total = total.plus(r.counters(classes));
            r.hotAtomics().forEach((address, n) -> hot.merge(address, n, Long::sum));
        }
        long hottest = hot.values().stream().mapToLong(Long::longValue).max().orElse(0);
        return total.withHotAtomics(hottest).scaledTo(state.sampled, state.ctas);
    }

    /**
     * Creates worker {@code index}'s runner on the calling thread and runs CTAs until none is left. Creating it there
     * keeps the hot state of different workers (counters, the last mapped segment) off shared cache lines.
     */
    private CtaRunner work(LaunchState state, int index) {
        CtaRunner runner = new CtaRunner(state, buffers[index]);
        runner.work();
        return runner;
    }

    private List<CtaRunner> runParallel(LaunchState state, int workers) {
        ExecutorService p = pool();
        List<Future<CtaRunner>> futures = new ArrayList<>();
        for (int i = 1; i < workers; i++) {
            int index = i;
            futures.add(p.submit(() -> work(state, index)));
        }
        List<CtaRunner> runners = new ArrayList<>();
        runners.add(work(state, 0));
        for (Future<CtaRunner> f : futures) {
            try {
                runners.add(f.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BackendException("interrupted while waiting for a kernel's CTAs", e);
            } catch (ExecutionException e) {
                throw new BackendException("a CTA worker failed: " + e.getCause(), e.getCause());
            }
        }
        return runners;
    }

    private synchronized ExecutorService pool() {
        if (pool == null) {
            AtomicInteger n = new AtomicInteger();
            ThreadPoolExecutor p = new ThreadPoolExecutor(parallelism - 1, parallelism - 1, 10, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), task -> {
                        Thread t = new Thread(task, "polygpu-cta-" + n.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    });
            p.allowCoreThreadTimeOut(true); // idle workers go away, even if the executor is never closed
            pool = p;
        }
        return pool;
    }

    /** Stops the worker threads; idempotent. */
    @Override
    public synchronized void close() {
        if (pool != null) {
            pool.shutdownNow();
            pool = null;
        }
    }
}
