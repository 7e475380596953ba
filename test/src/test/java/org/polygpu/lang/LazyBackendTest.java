package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** The library is only checked to be an ELF file at the start; loading this one, which is no more, fails. */
    @Test
    void nvrtcIsLoadedOnlyWhenAKernelIsBuilt(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path library = Files.write(dir.resolve("libnvrtc.so.12"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
        try (Context c = autoContext(err, "Backend", "emulated", "NvrtcLibrary", library.toString())) {
            c.eval("python", TOUCH + """
                    x = CU.DeviceArray('float', 8)
                    x[3] = 2.5
                    assert x[3] == 2.5 and CU.cudaGetDeviceCount() == 4
                    """);
            PolyglotException e = assertThrows(PolyglotException.class, () -> c.eval("python", TOUCH
                    + "CU.buildkernel('__global__ void k(int n) {}', 'k(n: sint32)')\n"));
            assertTrue(e.getMessage().contains(library.toString()), e.getMessage());
            assertFalse(e.isInternalError(), e::toString);
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
