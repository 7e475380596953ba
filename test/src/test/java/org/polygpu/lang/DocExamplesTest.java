package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.lang.MarkdownBlocks.Block;
import org.polygpu.lang.launcher.Launcher;

/**
 * The documentation's examples run: every {@code python}, {@code js} and {@code java} block of README.md and of the
 * pages under docs/ ({@link MarkdownBlocks} has the convention) runs on the emulator, Python and JavaScript through
 * the launcher's code path with one shared engine, Java compiled in-process and its {@code main} called; exit status
 * and, where the page shows it, standard output must match. Also: docs/index.md links every page, every relative
 * link leads to a file, and no page names a machine-specific path. Every Python and JavaScript program of
 * {@code examples/} runs too, with a small problem size as its first argument, and must exit with status 0 (each
 * checks its own results).
 */
class DocExamplesTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");
    /**
     * Pages of docs/ that the guide links but that arrive with other changes (the emulator's timing model, the GPU
     * pack): a link to one of them is accepted while the page is missing. Remove a name once its page is in.
     */
    private static final Pattern MACHINE_PATH = Pattern.compile("(/work/|/usr/lib/jvm|/home/|/root/|/tmp/|C:\\\\)");

    @TempDir
    Path temp;

    @TestFactory
    Stream<DynamicTest> everyRunnableBlockRuns() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path page : MarkdownBlocks.pages(ROOT)) {
            for (Block b : MarkdownBlocks.runnable(page)) {
                tests.add(DynamicTest.dynamicTest(ROOT.relativize(b.file()) + ":" + b.line(), () -> run(b)));
            }
        }
        assertTrue(tests.size() >= 10, "the pages have runnable examples: " + tests.size());
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> everyExampleRuns() throws IOException {
        List<Path> programs;
        try (Stream<Path> files = Files.list(ROOT.resolve("examples"))) {
            programs = files.filter(p -> p.toString().endsWith(".py") || p.toString().endsWith(".js")).sorted()
                    .toList();
        }
        assertTrue(programs.size() >= 3, "examples/ has its programs: " + programs);
        return programs.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            Polyglot.assumeNvrtc();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int status;
            try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8)) {
                status = Launcher.run(List.of("--polygpu.Backend=emulated", p.toString(), "4096"),
                        new ByteArrayInputStream(new byte[0]), o, o, Polyglot.ENGINE);
            }
            assertEquals(0, status, p + ":\n" + out.toString(StandardCharsets.UTF_8));
        }));
    }

    private void run(Block b) throws Exception {
        if (b.code().contains("buildkernel")) {
            Polyglot.assumeNvrtc();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = b.language().equals("java") ? runJava(b, o, e) : runScript(b, o, e);
        }
        String stdout = out.toString(StandardCharsets.UTF_8);
        String where = b.name() + "; stderr:\n" + err.toString(StandardCharsets.UTF_8) + "\nstdout:\n" + stdout;
        assertEquals(b.exit(), status, "exit status of " + where);
        if (b.output() != null) {
            assertEquals(b.output(), stdout, "output of " + where);
        }
    }

    private int runScript(Block b, PrintStream out, PrintStream err) throws IOException {
        Path script = temp.resolve("example." + (b.language().equals("python") ? "py" : "js"));
        Files.writeString(script, b.code());
        List<String> args = new ArrayList<>(List.of("--polygpu.Backend=emulated"));
        args.addAll(b.options());
        args.add(script.toString());
        return Launcher.run(args, new ByteArrayInputStream(new byte[0]), out, err, Polyglot.ENGINE);
    }

    /** Compiles the block's public class and calls its main with standard output and error redirected. */
    private int runJava(Block b, PrintStream out, PrintStream err) throws Exception {
        assertFalse(b.code().contains("System.exit"), b.name() + ": a Java example must return from main");
        assertTrue(b.options().isEmpty(), b.name() + ": a Java example sets its options on its Context.Builder");
        Matcher m = Pattern.compile("public\\s+(?:final\\s+)?class\\s+(\\w+)").matcher(b.code());
        assertTrue(m.find(), b.name() + ": a Java example is a public class with a main method");
        Path source = temp.resolve(m.group(1) + ".java");
        Files.writeString(source, b.code());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int compiled = javac.run(null, out, err, "-d", temp.toString(), "-cp", System.getProperty("java.class.path"),
                source.toString());
        if (compiled != 0) {
            return compiled;
        }
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        System.setOut(out);
        System.setErr(err);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {temp.toUri().toURL()},
                getClass().getClassLoader())) {
            Method main = loader.loadClass(m.group(1)).getMethod("main", String[].class);
            main.invoke(null, (Object) new String[0]);
            return 0;
        } catch (java.lang.reflect.InvocationTargetException e) {
            e.getCause().printStackTrace(err);
            return 1;
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
    }

    @Test
    void indexLinksEveryPageAndEveryLinkLeadsToAFile() throws IOException {
        Path docs = ROOT.resolve("docs").normalize();
        Set<Path> linkedFromIndex = new TreeSet<>();
        for (Path page : MarkdownBlocks.pages(ROOT)) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.contains("://") || target.startsWith("mailto:")) {
                    continue;
                }
                Path file = page.getParent().resolve(target).normalize();
                assertTrue(Files.exists(file),
                        page + " links to " + target + ", which does not exist");
                if (m.group(2) != null && Files.exists(file) && target.endsWith(".md")) {
                    assertTrue(anchors(file).contains(m.group(2).substring(1)), page + " links to " + target
                            + m.group(2) + ", a heading that page does not have");
                }
                if (page.getFileName().toString().equals("index.md") && page.getParent().normalize().equals(docs)) {
                    linkedFromIndex.add(file);
                }
            }
        }
        for (Path page : MarkdownBlocks.pages(ROOT)) {
            Path p = page.normalize();
            if (p.startsWith(docs) && !p.equals(docs.resolve("index.md"))) {
                assertTrue(linkedFromIndex.contains(p), "docs/index.md does not link " + docs.relativize(p));
            }
        }
    }

    /** The anchors GitHub gives the headings of {@code page}: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new TreeSet<>();
        boolean inFence = false;
        for (String line : Files.readAllLines(page)) {
            inFence ^= line.startsWith("```");
            if (!inFence && line.startsWith("#")) {
                anchors.add(line.replaceFirst("^#+\\s*", "").toLowerCase(java.util.Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }

    @Test
    void noPageNamesAMachineSpecificPath() throws IOException {
        for (Path page : MarkdownBlocks.pages(ROOT)) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                assertFalse(MACHINE_PATH.matcher(lines.get(i)).find(),
                        page + ":" + (i + 1) + " names a machine-specific path: " + lines.get(i));
            }
        }
    }
}
