package org.polygpu.bench.hand;

import java.util.Map;
import java.util.Set;

/**
 * Which pointer parameters of each benchmark kernel are written ({@code out} or {@code inout} in the polygpu
 * programs' signatures); the other pointer parameters are only read.
 */
final class WrittenParameters {
    private static final Map<String, Set<Integer>> WRITTEN = Map.ofEntries(
            Map.entry("vec.square", Set.of(0)),
            Map.entry("vec.diff_sum", Set.of(2)),
            Map.entry("bs.black_scholes", Set.of(1)),
            Map.entry("mul.matvec", Set.of(2)),
            Map.entry("ml.nb_scores", Set.of(3)),
            Map.entry("ml.rr_scores", Set.of(5)),
            Map.entry("ml.softmax", Set.of(0)),
            Map.entry("ml.argmax_sum", Set.of(2)),
            Map.entry("cg.matvec", Set.of(2)),
            Map.entry("cg.dot_slice", Set.of(3)),
            Map.entry("cg.norm2", Set.of(1)),
            Map.entry("cg.accumulate", Set.of(1)),
            Map.entry("cg.update_xr", Set.of(0, 1)),
            Map.entry("cg.update_p", Set.of(0)));

    private WrittenParameters() {
    }

    /** The written parameters' positions of {@code kernel} in {@code kernels/<source>.cu}. */
    static Set<Integer> of(String source, String kernel) {
        Set<Integer> written = WRITTEN.get(source + "." + kernel);
        if (written == null) {
            throw new IllegalArgumentException("no kernel named " + kernel + " in " + source + ".cu is known");
        }
        return written;
    }
}
