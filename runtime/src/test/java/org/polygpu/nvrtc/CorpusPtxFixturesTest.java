package org.polygpu.nvrtc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The emulator's kernel corpus ({@code emulator/src/test/resources/org/polygpu/emulator/corpus}): its committed PTX
 * fixtures are what NVRTC makes of its CUDA sources, so the interpreter's tests can run where NVRTC is missing.
 *
 * <p>With {@code -Dpolygpu.regenerateCorpus=true} the fixtures are rewritten instead of compared. The comparison is
 * skipped without NVRTC, and when the installed NVRTC is another release than the one that wrote the fixtures.
 */
class CorpusPtxFixturesTest {
    private static final String REGENERATE_PROPERTY = "polygpu.regenerateCorpus";
    private static final Path CORPUS = Path.of("emulator/src/test/resources/org/polygpu/emulator/corpus");
    private static final Pattern ENTRY = Pattern.compile("^(?:\\.(?:visible|weak)\\s+)?\\.entry\\s+([^\\s(]+)",
            Pattern.MULTILINE);
    private static final Pattern RELEASE = Pattern.compile("^// Cuda compilation tools, (.*)$", Pattern.MULTILINE);

    /** One manifest entry: a source compiled with some options into one fixture. */
    record CorpusEntry(String name, String file, List<String> options, List<String> kernels,
            List<String> nameExpressions) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<CorpusEntry> entries() throws IOException {
        Properties manifest = new Properties();
        try (Reader reader = Files.newBufferedReader(corpusDirectory().resolve("corpus.properties"))) {
            manifest.load(reader);
        }
        Set<String> names = new TreeSet<>();
        for (String key : manifest.stringPropertyNames()) {
            names.add(key.substring(0, key.indexOf('.')));
        }
        List<CorpusEntry> entries = new ArrayList<>();
        for (String name : names) {
            entries.add(new CorpusEntry(name, manifest.getProperty(name + ".file"),
                    split(manifest.getProperty(name + ".options", ""), "\\s+"),
                    split(manifest.getProperty(name + ".kernels", ""), ","),
                    split(manifest.getProperty(name + ".nameExpressions", ""), ",")));
        }
        return entries;
    }

    @ParameterizedTest
    @MethodSource("entries")
    void fixtureIsWhatNvrtcCompilesNow(CorpusEntry entry) throws IOException {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        Path directory = corpusDirectory();
        String source = Files.readString(directory.resolve(entry.file()));
        NvrtcResult result = Nvrtc.load(null).compile(source, entry.file(), entry.options(), entry.nameExpressions());
        assertEquals(expectedEntries(entry, result.loweredNames()), entryPoints(result.ptx()),
                "the PTX's entry points are the manifest's kernels");

        Path ptxFile = directory.resolve("ptx").resolve(entry.name() + ".ptx");
        Path namesFile = directory.resolve("ptx").resolve(entry.name() + ".names");
        String names = namesFileText(result.loweredNames());
        if (Boolean.getBoolean(REGENERATE_PROPERTY)) {
            Files.createDirectories(ptxFile.getParent());
            Files.writeString(ptxFile, result.ptx());
            if (!names.isEmpty()) {
                Files.writeString(namesFile, names);
            }
            return;
        }
        assertTrue(Files.isRegularFile(ptxFile), ptxFile + " is missing; run with -D" + REGENERATE_PROPERTY + "=true");
        String committed = Files.readString(ptxFile);
        Assumptions.assumeTrue(release(committed).equals(release(result.ptx())), "the fixtures come from NVRTC "
                + release(committed) + ", this is " + release(result.ptx()));
        assertEquals(committed, result.ptx(), ptxFile + " is stale; run with -D" + REGENERATE_PROPERTY + "=true");
        if (!names.isEmpty()) {
            assertEquals(names, Files.readString(namesFile), namesFile + " is stale");
        }
    }

    @Test
    void everyManifestEntryHasAFixtureWithItsKernelsAndNoFixtureIsOrphaned() throws IOException {
        Path ptxDirectory = corpusDirectory().resolve("ptx");
        Set<String> expectedFiles = new TreeSet<>();
        for (CorpusEntry entry : entries()) {
            assertTrue(Files.isRegularFile(corpusDirectory().resolve(entry.file())), entry.file());
            Map<String, String> lowered = Map.of();
            expectedFiles.add(entry.name() + ".ptx");
            if (!entry.nameExpressions().isEmpty()) {
                expectedFiles.add(entry.name() + ".names");
                lowered = loadNames(ptxDirectory.resolve(entry.name() + ".names"));
                assertEquals(Set.copyOf(entry.nameExpressions()), lowered.keySet(), entry.name() + ".names");
            }
            String ptx = Files.readString(ptxDirectory.resolve(entry.name() + ".ptx"));
            assertEquals(expectedEntries(entry, lowered), entryPoints(ptx), entry.name() + ".ptx entry points");
        }
        try (Stream<Path> files = Files.list(ptxDirectory)) {
            assertEquals(expectedFiles, files.map(f -> f.getFileName().toString()).collect(Collectors.toCollection(
                    TreeSet::new)));
        }
    }

    private static Set<String> expectedEntries(CorpusEntry entry, Map<String, String> lowered) {
        Set<String> expected = new TreeSet<>(entry.kernels());
        expected.addAll(lowered.values());
        return expected;
    }

    private static Set<String> entryPoints(String ptx) {
        Set<String> entries = new TreeSet<>();
        Matcher matcher = ENTRY.matcher(ptx);
        while (matcher.find()) {
            entries.add(matcher.group(1));
        }
        return entries;
    }

    private static String release(String ptx) {
        Matcher matcher = RELEASE.matcher(ptx);
        return matcher.find() ? matcher.group(1) : "(unknown release)";
    }

    /** {@code expression=lowered} lines, readable with {@link Properties#load}; spaces and separators escaped. */
    private static String namesFileText(Map<String, String> lowered) {
        StringBuilder text = new StringBuilder();
        lowered.forEach((expression, name) -> text.append(expression.replaceAll("([ =:#!\\\\])", "\\\\$1"))
                .append('=').append(name).append('\n'));
        return text.toString();
    }

    private static Map<String, String> loadNames(Path file) throws IOException {
        Properties names = new Properties();
        names.load(new StringReader(Files.readString(file)));
        return names.stringPropertyNames().stream().collect(Collectors.toMap(k -> k, names::getProperty));
    }

    private static List<String> split(String value, String separator) {
        return Arrays.stream(value.trim().split(separator)).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** The corpus directory: under {@code polygpu.home}, else under the nearest ancestor of the working directory. */
    static Path corpusDirectory() {
        String home = System.getProperty(NvrtcLibrary.HOME_PROPERTY);
        if (home != null && !home.isBlank()) {
            return Path.of(home).toAbsolutePath().resolve(CORPUS);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(CORPUS).resolve("corpus.properties"))) {
                return dir.resolve(CORPUS);
            }
        }
        throw new IllegalStateException("No " + CORPUS + " above " + Path.of("").toAbsolutePath());
    }
}
