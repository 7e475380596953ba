package org.polygpu.dag;

import java.util.ArrayList;

/**
 * The live accesses to one array that later computations can depend on: the last writer and, under
 * {@code with-const}, the readers since that write. Under {@code no-const} every access counts as the last writer.
 */
final class ArrayHistory<C> {
    private static final int COMPACT_AT = 16;

    DagVertex<C> lastWriter;
    final ArrayList<DagVertex<C>> readers = new ArrayList<>(2);

    /** The last writer if it has not finished. */
    DagVertex<C> liveWriter() {
        DagVertex<C> w = lastWriter;
        return w == null || w.finished ? null : w;
    }

    void addReader(DagVertex<C> reader) {
        if (readers.size() >= COMPACT_AT) {
            readers.removeIf(r -> r.finished);
        }
        readers.add(reader);
    }
}
