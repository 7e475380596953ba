package org.polygpu.sched;

import java.lang.foreign.MemorySegment;

import org.polygpu.backend.Backend;

/**
 * Host writes into the {@code __constant__} and {@code __device__} variables of a kernel's module, with CUDA's
 * {@code cudaMemcpyToSymbol} semantics. Each kernel loads its own module, so only that kernel's launches can read the
 * variables: a write waits for those launches still pending (they must not see it), then writes on every device
 * the module is loaded on before returning (later launches must see it). Arrays are untouched, so no DAG vertex is
 * needed. Used from the scheduler's thread only.
 */
final class SymbolWrites {
    private final Backend backend;
    private final StreamPool pool;

    SymbolWrites(Backend backend, StreamPool pool) {
        this.backend = backend;
        this.pool = pool;
    }

    /** @throws org.polygpu.backend.BackendException for an unknown variable or bytes that do not fit in it */
    void write(Kernel kernel, String symbol, long offset, MemorySegment src) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset " + offset + " into variable '" + symbol + "' is negative");
        }
        // Found here rather than tracked on every launch: symbol writes are rare, launches are not.
        for (Computation c : pool.unfinished()) {
            if (!c.isFinished() && c.work() instanceof KernelLaunch launch && launch.kernel() == kernel) {
                pool.await(c);
            }
        }
        for (int d = 0; d < kernel.deviceCount(); d++) {
            backend.writeSymbol(kernel.module(d), symbol, offset, src);
        }
    }
}
