package org.polygpu.lang;

import java.io.ByteArrayOutputStream;
import java.util.Map;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.Value;

/**
 * Polyglot contexts for the tests: one {@link Engine} shared by every test in the JVM (GraalPy's first context takes
 * seconds, later ones a fraction of that), contexts with all access on the emulated backend.
 */
final class Polyglot {
    static final Engine ENGINE = Engine.newBuilder()
            .option("engine.WarnInterpreterOnly", "false")
            .out(new ByteArrayOutputStream())
            .err(new ByteArrayOutputStream())
            .build();

    private Polyglot() {
    }

    /**
     * A context on 4 emulated GPUs unless {@code options} (names without the {@code polygpu.} prefix) say
     * otherwise.
     */
    static Context context(Map<String, String> options) {
        Context.Builder b = Context.newBuilder().engine(ENGINE).allowAllAccess(true)
                .option("polygpu.Backend", "emulated");
        options.forEach((k, v) -> b.option(k.contains(".") ? k : "polygpu." + k, v));
        return b.build();
    }

    static Context context() {
        return context(Map.of());
    }

    /**
     * Skips the calling test when NVRTC is not installed (kernels are compiled at run time); scripts/test.sh
     * installs it, and on CI its absence is an error there.
     */
    static void assumeNvrtc() {
        org.junit.jupiter.api.Assumptions.assumeTrue(org.polygpu.nvrtc.NvrtcLibrary.system(null).find().isPresent(),
                "NVRTC is not installed; run scripts/install-nvrtc.sh");
    }

    /** {@code eval} in the polygpu language. */
    static Value eval(Context c, String code) {
        return c.eval("polygpu", code);
    }
}
