package org.polygpu.cluster;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.polygpu.backend.Backend;

/**
 * Pinned host buffers for the copies that cross ranks, kept for reuse: allocating (and zero-filling) a staging
 * buffer per copy cost as much as the copy itself. A buffer is taken for one copy and given back once that copy no
 * longer reads or writes it; at most {@value #KEPT_BYTES} bytes are kept, the rest is freed. A buffer taken may be
 * larger than asked (at most twice) and holds what its last copy left. Thread-safe; {@link #close()} frees the kept
 * buffers before the backend closes.
 *
 * <p>Test hook, for tests of the direct path only ({@link DirectPath}): with the system property
 * {@code polygpu.cluster.testRefuseStaging=true}, {@link #take} fails, so that a copy between ranks that is staged
 * fails the job instead of passing unseen.
 */
final class StagingPool implements AutoCloseable {
    /** Bytes of free buffers kept: a few copies' worth at the transport's chunk size and above. */
    static final long KEPT_BYTES = 256L << 20;

    private final Backend backend;
    private final boolean refuse;
    private final List<MemorySegment> free = new ArrayList<>();
    private long kept;

    StagingPool(Backend backend) {
        this(backend, Boolean.getBoolean("polygpu.cluster.testRefuseStaging"));
    }

    /** A pool whose {@link #take} fails when {@code refuse}. */
    StagingPool(Backend backend, boolean refuse) {
        this.backend = backend;
        this.refuse = refuse;
    }

    /** A buffer of at least {@code bytes} bytes (and at least one). */
    synchronized MemorySegment take(long bytes) {
        if (refuse) {
            throw new IllegalStateException("a copy between ranks was staged through " + bytes + " bytes of pinned "
                    + "host memory, which polygpu.cluster.testRefuseStaging refuses");
        }
        long size = Math.max(1, bytes);
        for (Iterator<MemorySegment> it = free.iterator(); it.hasNext(); ) {
            MemorySegment s = it.next();
            if (s.byteSize() >= size && s.byteSize() <= 2 * size) {
                it.remove();
                kept -= s.byteSize();
                return s;
            }
        }
        return backend.allocateHost(size);
    }

    /** Gives back a buffer {@link #take} gave, whole. */
    synchronized void give(MemorySegment buffer) {
        if (kept + buffer.byteSize() <= KEPT_BYTES) {
            free.add(buffer);
            kept += buffer.byteSize();
        } else {
            backend.freeHost(buffer);
        }
    }

    /** Bytes kept for reuse now. */
    synchronized long keptBytes() {
        return kept;
    }

    @Override
    public synchronized void close() {
        free.forEach(backend::freeHost);
        free.clear();
        kept = 0;
    }
}
