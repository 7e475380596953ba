package org.polygpu.nvrtc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compiled-kernel cache on disk, over a counting stand-in for NVRTC (no library is loaded). */
class KernelCacheTest {
    private static final String SOURCE = "extern \"C\" __global__ void k(float *x) { x[0] = 1; }";
    private static final KernelCache.Compilation BASE = new KernelCache.Compilation("nvrtc 12.9 /lib/libnvrtc.so",
            SOURCE, "k.cu", List.of("--gpu-architecture=compute_70"), List.of("k"));

    @TempDir
    Path dir;

    private final AtomicInteger compilations = new AtomicInteger();

    /** A compiler whose PTX says which compilation it was, and whose CUBIN is present. */
    private final Supplier<NvrtcResult> compiler = () -> {
        int n = compilations.incrementAndGet();
        return new NvrtcResult(".version 8.0 // compilation " + n + "\n" + "x".repeat(70_000), new byte[] {1, 2, 3},
                Map.of("k", "_Z1kPf"), "warning " + n);
    };

    private static KernelCache.Compilation with(String source, List<String> options, List<String> names,
            String compiler) {
        return new KernelCache.Compilation(compiler, source, BASE.programName(), options, names);
    }

    private List<Path> entries() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }

    @Test
    void aSecondCompilationOfTheSameInputsIsAHitWithTheFirstResult() {
        KernelCache cache = KernelCache.in(dir);
        NvrtcResult first = cache.compile(BASE, compiler);
        NvrtcResult second = KernelCache.in(dir).compile(BASE, compiler);
        assertEquals(1, compilations.get());
        assertEquals(first.ptx(), second.ptx());
        assertArrayEquals(new byte[] {1, 2, 3}, second.cubin());
        assertEquals("_Z1kPf", second.loweredName("k"));
        assertEquals("warning 1", second.log());
    }

    @Test
    void changedSourceOptionsNamesOrCompilerAreMisses() {
        KernelCache cache = KernelCache.in(dir);
        cache.compile(BASE, compiler);
        List<KernelCache.Compilation> changed = List.of(
                with(SOURCE + " ", BASE.options(), BASE.nameExpressions(), BASE.compiler()),
                with(SOURCE, List.of("--gpu-architecture=compute_80"), BASE.nameExpressions(), BASE.compiler()),
                with(SOURCE, List.of("--gpu-architecture=compute_70", "--use_fast_math"), BASE.nameExpressions(),
                        BASE.compiler()),
                with(SOURCE, BASE.options(), List.of("k", "k2"), BASE.compiler()),
                with(SOURCE, BASE.options(), BASE.nameExpressions(), "nvrtc 13.0 /lib/libnvrtc.so"));
        for (KernelCache.Compilation c : changed) {
            int before = compilations.get();
            cache.compile(c, compiler);
            assertEquals(before + 1, compilations.get(), "a miss: " + c);
        }
        assertEquals(changed.size() + 1, compilations.get());
        cache.compile(changed.get(1), compiler);
        assertEquals(changed.size() + 1, compilations.get(), "each of them is a hit afterwards");
    }

    @Test
    void optionsAreKeyedInOrderAndWithoutAmbiguity() {
        KernelCache.Compilation ab = with(SOURCE, List.of("-DA", "-DB"), BASE.nameExpressions(), BASE.compiler());
        KernelCache.Compilation ba = with(SOURCE, List.of("-DB", "-DA"), BASE.nameExpressions(), BASE.compiler());
        KernelCache.Compilation joined = with(SOURCE, List.of("-DA-DB"), BASE.nameExpressions(), BASE.compiler());
        assertFalse(ab.key().equals(ba.key()) || ab.key().equals(joined.key()));
        assertEquals(64, ab.key().length());
    }

    @Test
    void aCorruptOrTruncatedEntryIsIgnoredAndReplaced() throws IOException {
        KernelCache cache = KernelCache.in(dir);
        cache.compile(BASE, compiler);
        Path entry = entries().getFirst();
        byte[] whole = Files.readAllBytes(entry);
        byte[] flipped = whole.clone();
        flipped[whole.length / 2] ^= 0x10;
        for (byte[] damaged : List.of(flipped, java.util.Arrays.copyOf(whole, whole.length - 9), new byte[3],
                "not an entry at all".getBytes())) {
            Files.write(entry, damaged);
            int before = compilations.get();
            NvrtcResult r = cache.compile(BASE, compiler);
            assertEquals(before + 1, compilations.get(), "a damaged entry is a miss");
            assertTrue(r.ptx().contains("compilation " + (before + 1)), "the fresh result is returned");
            assertEquals(r.ptx(), cache.compile(BASE, compiler).ptx(), "and written back whole");
            assertEquals(before + 1, compilations.get());
        }
    }

    @Test
    void anEntryAnsweringAnotherKeyIsAMiss() throws IOException {
        KernelCache cache = KernelCache.in(dir);
        KernelCache.Compilation other = with(SOURCE, List.of("-DOTHER"), BASE.nameExpressions(), BASE.compiler());
        cache.compile(other, compiler);
        Files.copy(dir.resolve(other.key() + ".nvrtc"), dir.resolve(BASE.key() + ".nvrtc"));
        cache.compile(BASE, compiler);
        assertEquals(2, compilations.get());
    }

    @Test
    void aDisabledCacheCompilesEveryTimeAndWritesNothing() throws IOException {
        KernelCache cache = KernelCache.disabled();
        cache.compile(BASE, compiler);
        cache.compile(BASE, compiler);
        assertEquals(2, compilations.get());
        assertTrue(cache.directory().isEmpty());
        assertTrue(entries().isEmpty());
    }

    @Test
    void sourcesWithTheUsersOwnHeadersAreNotCached() throws IOException {
        KernelCache cache = KernelCache.in(dir);
        List<KernelCache.Compilation> uncached = List.of(
                with("#include \"mine.h\"\n" + SOURCE, BASE.options(), BASE.nameExpressions(), BASE.compiler()),
                with(SOURCE, List.of("-I/home/me/include"), BASE.nameExpressions(), BASE.compiler()),
                with(SOURCE, List.of("--include-path=inc"), BASE.nameExpressions(), BASE.compiler()),
                with(SOURCE, List.of("--pre-include=pre.h"), BASE.nameExpressions(), BASE.compiler()));
        for (KernelCache.Compilation c : uncached) {
            cache.compile(c, compiler);
            cache.compile(c, compiler);
        }
        assertEquals(2 * uncached.size(), compilations.get());
        assertTrue(entries().isEmpty());
        cache.compile(with("#include <cuda_fp16.h>\n" + SOURCE, BASE.options(), BASE.nameExpressions(),
                BASE.compiler()), compiler);
        assertEquals(1, entries().size(), "the CUDA headers are keyed by the compiler's header directories");
    }

    @Test
    void aFailedCompilationIsNotKept() throws IOException {
        KernelCache cache = KernelCache.in(dir);
        NvrtcException failure = NvrtcException.callFailed("nvrtcCompileProgram", 6, "NVRTC_ERROR_COMPILATION",
                "k.cu(1): error: expected a ;");
        assertThrows(NvrtcException.class, () -> cache.compile(BASE, () -> {
            throw failure;
        }));
        assertTrue(entries().isEmpty());
    }

    @Test
    void aDirectoryThatCannotBeWrittenOnlyCostsCompilations() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "in the way");
        KernelCache cache = KernelCache.in(file.resolve("kernels"));
        cache.compile(BASE, compiler);
        cache.compile(BASE, compiler);
        assertEquals(2, compilations.get());
    }

    @Test
    void concurrentWritersLeaveOneWholeEntryAndNoTemporaryFiles() throws Exception {
        KernelCache cache = KernelCache.in(dir.resolve("shared"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<NvrtcResult>> tasks = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                tasks.add(() -> cache.compile(BASE, compiler));
            }
            for (Future<NvrtcResult> f : pool.invokeAll(tasks)) {
                assertEquals("_Z1kPf", f.get().loweredName("k"));
            }
        } finally {
            pool.shutdown();
        }
        try (Stream<Path> files = Files.list(dir.resolve("shared"))) {
            assertEquals(List.of(BASE.key() + ".nvrtc"), files.map(f -> f.getFileName().toString()).toList());
        }
        int before = compilations.get();
        assertTrue(KernelCache.in(dir.resolve("shared")).compile(BASE, compiler).ptx().startsWith(".version 8.0"));
        assertEquals(before, compilations.get(), "the entry left is whole");
    }

    /** With the real NVRTC: the first run loads it and records its version, a second run's hit loads nothing. */
    @Test
    void aHitLoadsNoNvrtcOnceAFirstLoadRecordedItsVersion() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(),
                "NVRTC is not installed");
        AtomicInteger loads = new AtomicInteger();
        Supplier<Nvrtc> load = () -> {
            loads.incrementAndGet();
            return Nvrtc.load(null);
        };
        List<String> options = List.of("--gpu-architecture=compute_70");
        NvrtcResult first = KernelCache.in(dir).compile(null, load, SOURCE, "k.cu", options, List.of("k"));
        assertEquals(1, loads.get());
        NvrtcResult second = KernelCache.in(dir).compile(null, load, SOURCE, "k.cu", options, List.of("k"));
        assertEquals(1, loads.get(), "the hit loaded no NVRTC");
        assertEquals(first.ptx(), second.ptx());
        assertEquals(first.ptx(), KernelCache.in(dir).compile(Nvrtc.load(null), SOURCE, "k.cu", options,
                List.of("k")).ptx(), "one key, whether NVRTC is loaded first or not");
        assertEquals(2, entries().size(), "the entry and the recorded version: " + entries());
        for (Path version : entries().stream().filter(p -> p.toString().endsWith(".version")).toList()) {
            Files.writeString(version, "garbage");
        }
        KernelCache.in(dir).compile(null, load, SOURCE, "k.cu", options, List.of("k"));
        assertEquals(2, loads.get(), "an unreadable record costs a load, and is rewritten");
        KernelCache.in(dir).compile(null, load, SOURCE, "k.cu", options, List.of("k"));
        assertEquals(2, loads.get());
    }

    @Test
    void theDefaultDirectoryIsPerUserAndCanBeRelocated() {
        Path home = Path.of("/home/someone");
        assertEquals(Path.of("/home/someone/.cache/polygpu/kernels"), KernelCache.defaultDirectory(Map.of(), home));
        assertEquals(Path.of("/xdg/polygpu/kernels"),
                KernelCache.defaultDirectory(Map.of("XDG_CACHE_HOME", "/xdg"), home));
        assertEquals(Path.of("/elsewhere"), KernelCache.defaultDirectory(Map.of("POLYGPU_CACHE_DIR", "/elsewhere",
                "XDG_CACHE_HOME", "/xdg"), home));
    }

    @Test
    void aResultWithoutCubinRoundTrips() {
        KernelCache cache = KernelCache.in(dir);
        Supplier<NvrtcResult> ptxOnly = () -> {
            compilations.incrementAndGet();
            return new NvrtcResult(".version 8.0", null, Map.of(), "");
        };
        cache.compile(BASE, ptxOnly);
        NvrtcResult hit = cache.compile(BASE, ptxOnly);
        assertEquals(1, compilations.get());
        assertNull(hit.cubin());
        assertEquals("", hit.log());
    }
}
