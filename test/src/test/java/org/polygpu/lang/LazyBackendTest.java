package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.junit.jupiter.api.Test;

/**
 * polygpu opens its backend when a guest first evaluates polygpu code, not when the context starts: a script that
 * never uses polygpu opens no backend and loads no NVRTC, while bad options still stop the context at its start.
 */
class LazyBackendTest {
    private static final String TOUCH = "import polyglot\nCU = polyglot.eval(language='polygpu', string='CU')\n";

    /** A context with {@code Backend=auto}, whose opening prints the one-line notice on the context's stderr. */
    private static Context autoContext(ByteArrayOutputStream err, String... options) {
        Context.Builder b = Context.newBuilder().engine(Polyglot.ENGINE).allowAllAccess(true).err(err)
                .out(new ByteArrayOutputStream());
        for (int i = 0; i < options.length; i += 2) {
            b.option("polygpu." + options[i], options[i + 1]);
        }
        return b.build();
    }

    @Test
    void aContextThatNeverTouchesPolygpuOpensNoBackend() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = autoContext(err)) {
            c.initialize("polygpu");
            c.eval("python", "print(1)");
            assertEquals("", err.toString(StandardCharsets.UTF_8), "no backend notice before polygpu is used");
            c.eval("python", TOUCH);
            assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("polygpu: "),
                    "the first use opens the backend: " + err);
            int opened = err.size();
            c.eval("python", TOUCH + "CU.DeviceArray('float', 4)[0] = 1.0\n");
            assertEquals(opened, err.size(), "opened once");
        }
    }

    @Test
    void nvrtcIsLoadedOnlyWhenAKernelIsBuilt() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = autoContext(err, "Backend", "emulated", "NvrtcLibrary", "/nonexistent/libnvrtc.so.12")) {
            c.eval("python", TOUCH + """
                    x = CU.DeviceArray('float', 8)
                    x[3] = 2.5
                    assert x[3] == 2.5 and CU.cudaGetDeviceCount() == 4
                    """);
            PolyglotException e = assertThrows(PolyglotException.class, () -> c.eval("python", TOUCH
                    + "CU.buildkernel('__global__ void k(int n) {}', 'k(n: sint32)')\n"));
            assertTrue(e.getMessage().contains("/nonexistent/libnvrtc.so.12"), e.getMessage());
        }
    }

    @Test
    void optionsThatOnlyFailTogetherStillStopTheContextAtItsStart() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = autoContext(err, "Backend", "emulated", "EmulatedDevices", "9")) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> c.initialize("polygpu"));
            assertTrue(e.getMessage().startsWith("polygpu cannot start: ") && e.getMessage().contains("1..8"),
                    e.getMessage());
        }
    }
}
