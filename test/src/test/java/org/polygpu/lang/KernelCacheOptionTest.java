package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.TypeLiteral;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.nvrtc.KernelCache;

/**
 * The {@code KernelCache} and {@code KernelCacheDirectory} options: a kernel built in one context is found on disk by
 * the next (a second run), changed options compile anew, and a disabled cache writes nothing.
 */
class KernelCacheOptionTest {
    private static final String SQUARE = """
            import polyglot
            CU = polyglot.eval(language='polygpu', string='CU')
            k = CU.buildkernel('extern "C" __global__ void sq(float *x, int n) { int i = threadIdx.x; '
                               'if (i < n) x[i] = x[i] * x[i] * SCALE; }', 'sq(x: inout pointer float, n: sint32)',
                               OPTIONS)
            x = CU.DeviceArray('float', 4)
            for i in range(4):
                x[i] = i
            k(1, 4)(x, 4)
            result = [x[i] for i in range(4)]
            """;

    @TempDir
    Path dir;

    private List<Float> run(Map<String, String> options, String nvrtcOptions) {
        try (Context c = Polyglot.context(options)) {
            c.eval("python", SQUARE.replace("OPTIONS", nvrtcOptions));
            return List.copyOf(c.getBindings("python").getMember("result").as(new TypeLiteral<List<Float>>() { }));
        }
    }

    private List<Path> entries() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".nvrtc")).sorted().toList();
        }
    }

    @Test
    void aSecondRunFindsItsKernelInTheCacheDirectory() throws IOException {
        Polyglot.assumeNvrtc();
        Map<String, String> options = Map.of("KernelCacheDirectory", dir.toString());
        assertEquals(List.of(0f, 2f, 8f, 18f), run(options, "'-DSCALE=2'"));
        List<Path> entries = entries();
        assertEquals(1, entries.size(), entries.toString());
        Object written = Files.readAttributes(entries.getFirst(), BasicFileAttributes.class).fileKey();
        assertEquals(List.of(0f, 2f, 8f, 18f), run(options, "'-DSCALE=2'"));
        assertEquals(entries, entries());
        assertEquals(written, Files.readAttributes(entries.getFirst(), BasicFileAttributes.class).fileKey(),
                "the second run read the entry and wrote none");
        assertEquals(List.of(0f, 3f, 12f, 27f), run(options, "'-DSCALE=3'"), "other options compile anew");
        assertEquals(2, entries().size());
    }

    @Test
    void aDisabledCacheWritesNothing() throws IOException {
        Polyglot.assumeNvrtc();
        assertEquals(List.of(0f, 1f, 4f, 9f), run(Map.of("KernelCache", "false", "KernelCacheDirectory",
                dir.toString()), "'-DSCALE=1'"));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.toList());
        }
    }

    @Test
    void theDefaultDirectoryIsTheUsersAndGetoptionsShowsTheSettings() {
        try (Context c = Polyglot.context()) {
            assertEquals("true", Polyglot.eval(c, "getoptions()").getMember("KernelCache").toString());
            assertEquals("", Polyglot.eval(c, "getoptions()").getMember("KernelCacheDirectory").asString());
        }
        assertEquals(KernelCache.defaultDirectory(), ContextOptions.parse(Map.of()).backendOptions().kernelCache()
                .orElseThrow());
        assertTrue(ContextOptions.parse(Map.of("KernelCache", "false")).backendOptions().kernelCache().isEmpty());
        assertEquals(Path.of("/somewhere/else"), ContextOptions.parse(Map.of("KernelCacheDirectory",
                "/somewhere/else")).backendOptions().kernelCache().orElseThrow());
    }
}
