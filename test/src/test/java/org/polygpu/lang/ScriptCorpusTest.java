package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.polygpu.lang.launcher.Launcher;

/**
 * Runs every Python and JavaScript script of {@code test/scripts} through the launcher's code path
 * ({@link Launcher#run}, with one engine shared by all scripts) and compares what it prints with
 * {@code <script>.out}; a {@code <script>.err} file lists lines that stderr must contain. Leading comment lines of
 * a script may give {@code options: --polygpu.X=v ...}, {@code args: a b} and {@code exit: N} (default 0), and
 * {@code variant NAME: --polygpu.X=v ...} lines, each running the script once more with those options added and
 * its output compared with {@code <script>.NAME.out}.
 * With {@code -Dpolygpu.corpus.update=true} the {@code .out} files are rewritten from the actual output instead.
 */
class ScriptCorpusTest {
    private static final Path DIRECTORY = Path.of("scripts");

    @TestFactory
    Stream<DynamicTest> scripts() throws IOException {
        List<Path> scripts;
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            scripts = files.filter(p -> p.toString().endsWith(".py") || p.toString().endsWith(".js")).sorted()
                    .toList();
        }
        assertTrue(scripts.size() >= 10, "the corpus has its scripts: " + scripts);
        List<DynamicTest> tests = new ArrayList<>();
        for (Path s : scripts) {
            Header header = Header.of(Files.readAllLines(s));
            if (header.variants().isEmpty()) {
                tests.add(DynamicTest.dynamicTest(s.getFileName().toString(), () -> run(s, header, List.of(), "")));
            }
            header.variants().forEach((name, options) -> tests.add(DynamicTest.dynamicTest(
                    s.getFileName() + " [" + name + "]", () -> run(s, header, options, "." + name))));
        }
        return tests.stream();
    }

    /** Runs {@code script} with its options plus a variant's; the expected output is {@code <script><suffix>.out}. */
    private static void run(Path script, Header header, List<String> variantOptions, String suffix)
            throws IOException {
        if (Files.readString(script).contains("buildkernel")) {
            Polyglot.assumeNvrtc();
        }
        List<String> args = new ArrayList<>(header.options());
        args.addAll(variantOptions);
        args.add(script.toString());
        args.addAll(header.args());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Launcher.run(args, new ByteArrayInputStream(new byte[0]), o, e, Polyglot.ENGINE);
        }
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        Path expectedOut = Path.of(script + suffix + ".out");
        if (Boolean.getBoolean("polygpu.corpus.update")) {
            Files.writeString(expectedOut, stdout);
        }
        assertEquals(header.exit(), status, script + " exit status; stderr:\n" + stderr + "\nstdout:\n" + stdout);
        assertEquals(Files.readString(expectedOut), stdout, script + " output; stderr:\n" + stderr);
        Path expectedErr = Path.of(script + ".err");
        if (Files.exists(expectedErr)) {
            for (String line : Files.readAllLines(expectedErr)) {
                assertTrue(stderr.contains(line), script + " stderr lacks '" + line + "':\n" + stderr);
            }
        }
    }

    /** The directives in a script's leading comment lines. */
    record Header(List<String> options, Map<String, List<String>> variants, List<String> args, int exit) {
        static Header of(List<String> lines) {
            List<String> options = new ArrayList<>();
            Map<String, List<String>> variants = new LinkedHashMap<>();
            List<String> args = new ArrayList<>();
            int exit = 0;
            for (String line : lines) {
                String text = line.startsWith("#") ? line.substring(1) : line.startsWith("//") ? line.substring(2)
                        : null;
                if (text == null) {
                    break;
                }
                text = text.strip();
                if (text.startsWith("options:")) {
                    options.addAll(words(text.substring("options:".length())));
                } else if (text.startsWith("variant ") && text.indexOf(':') > 0) {
                    int colon = text.indexOf(':');
                    variants.put(text.substring("variant ".length(), colon).strip(),
                            words(text.substring(colon + 1)));
                } else if (text.startsWith("args:")) {
                    args.addAll(words(text.substring("args:".length())));
                } else if (text.startsWith("exit:")) {
                    exit = Integer.parseInt(text.substring("exit:".length()).strip());
                }
            }
            return new Header(options, variants, args, exit);
        }

        private static List<String> words(String text) {
            return Arrays.stream(text.strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
        }
    }
}
