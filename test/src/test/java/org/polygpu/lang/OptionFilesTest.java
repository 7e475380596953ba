package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Options that name a file, a library or a directory: a bad one stops the context at its start with
 * {@code polygpu cannot start: <Option>=<path> <reason>}, never an internal error.
 */
class OptionFilesTest {
    private static final String KERNEL = "extern \"C\" __global__ void one(float *x) { x[0] = 1.0f; }";

    @TempDir
    Path dir;

    /** Starts polygpu in a context with {@code option}, and returns the guest error it gives, if any. */
    private static PolyglotException startWith(String option, String value) {
        Context c = Polyglot.context(Map.of(option, value));
        try {
            Value cu = Polyglot.eval(c, "CU");
            Value x = cu.invokeMember("DeviceArray", "float", 4);
            if (org.polygpu.nvrtc.NvrtcLibrary.system(null).find().isPresent()) {
                cu.invokeMember("buildkernel", KERNEL, "one(x: out pointer float)").execute(1, 1).execute(x);
                assertEquals(1.0, x.getArrayElement(0).asDouble());
            }
            c.close();
            return null;
        } catch (PolyglotException e) {
            assertFalse(e.isInternalError(), () -> option + "=" + value + " gave an internal error: " + e);
            assertTrue(e.isGuestException(), e::toString);
            return e;
        } finally {
            c.close(true);
        }
    }

    private static void assertCannotStart(String expected, PolyglotException e) {
        assertTrue(e != null && e.getMessage().startsWith("polygpu cannot start: " + expected),
                () -> "expected 'polygpu cannot start: " + expected + "...', got " + e);
    }

    /** Before, the headers beside it were looked up at the root directory's (absent) name: a NullPointerException. */
    @Test
    void aTextFileInATopLevelDirectoryAsNvrtcLibrary() throws IOException {
        Path text = Files.createTempFile("polygpu-nvrtc", ".txt");
        try {
            Files.writeString(text, "not a library\n");
            assertCannotStart("NvrtcLibrary=" + text + " is not a shared library (an ELF file)",
                    startWith("NvrtcLibrary", text.toString()));
        } finally {
            Files.delete(text);
        }
    }

    /** Before, an UncheckedIOException that the context's gate did not translate. */
    @Test
    void aDirectoryAsEmulatedTopology() {
        assertCannotStart("EmulatedTopology=" + dir + " is a directory, not a file",
                startWith("EmulatedTopology", dir.toString()));
    }

    /** Before, an UncheckedIOException (a MalformedInputException) that the context's gate did not translate. */
    @Test
    void aBinaryFileAsBandwidthMatrix() throws IOException {
        Path binary = Files.write(dir.resolve("matrix.csv"), new byte[] {(byte) 0xc3, (byte) 0x28, 0, (byte) 0xff});
        assertCannotStart("BandwidthMatrix=" + binary + " is not a text file (it is not UTF-8)",
                startWith("BandwidthMatrix", binary.toString()));
    }

    @Test
    void aMalformedMatrixNamesTheOptionAndTheLine() throws IOException {
        Path csv = Files.writeString(dir.resolve("m.csv"), "From,To,Bandwidth\n0,1,fast\n");
        PolyglotException e = startWith("EmulatedTopology", csv.toString());
        assertCannotStart("EmulatedTopology=" + csv + ": ", e);
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    }

    /**
     * Option fuzz: every file-valued option given a directory, a binary file, a missing path, {@code /dev/null} and
     * a FIFO either works or stops the context with a guest error naming the option; none is an internal error or
     * blocks on the FIFO. {@code ExportDAG} names a prefix, so it gets no {@code /dev/null} (that would create
     * {@code /dev/null.dot}).
     */
    @Test
    void fileOptionsGivenBadFilesGiveNoInternalError() throws Exception {
        Path binary = Files.write(dir.resolve("binary"), new byte[] {0x7f, 0, (byte) 0xff, (byte) 0xfe, 3});
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        Assumptions.assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo works");
        Map<String, String> values = new LinkedHashMap<>();
        values.put("directory", Files.createDirectories(dir.resolve("a-directory")).toString());
        values.put("binary", binary.toString());
        values.put("missing", dir.resolve("missing/file").toString());
        values.put("/dev/null", "/dev/null");
        values.put("fifo", fifo.toString());
        List<String> options = List.of("NvrtcLibrary", "BandwidthMatrix", "EmulatedTopology", "ExportDAG",
                "ExportTrace", "KernelCacheDirectory", "CuBLASLibrary");
        List<String> refused = new ArrayList<>();
        for (String option : options) {
            for (Map.Entry<String, String> v : values.entrySet()) {
                if (option.equals("ExportDAG") && v.getKey().equals("/dev/null")) {
                    continue;
                }
                PolyglotException e = startWith(option, v.getValue());
                if (e != null) {
                    assertTrue(e.getMessage().startsWith("polygpu cannot start: " + option + "="), e.getMessage());
                    refused.add(option + " " + v.getKey());
                }
            }
        }
        assertTrue(refused.containsAll(List.of("NvrtcLibrary fifo", "BandwidthMatrix directory",
                "EmulatedTopology /dev/null", "ExportTrace fifo", "KernelCacheDirectory binary")), refused::toString);
        assertFalse(refused.stream().anyMatch(r -> r.startsWith("CuBLASLibrary")), "CuBLASLibrary has no effect");
    }
}
