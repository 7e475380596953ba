package org.polygpu.lang;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The fenced code blocks of the documentation's Markdown pages and the convention that makes them runnable: a block
 * fenced {@code python}, {@code js} or {@code java} is a complete program; words after the language on the fence
 * line are {@code --polygpu.Name=value} options for the run and {@code exit=N} (the expected exit status, default
 * 0); an {@code output} block right after it (blank lines between allowed) is what the program prints on standard
 * output. Other fences ({@code text}, {@code sh}, {@code cuda}, ...) are not run. Fence names that would hide a
 * program from the runner ({@code py}, {@code javascript}, ...) are refused.
 */
final class MarkdownBlocks {
    /** The languages whose blocks run. */
    static final Set<String> RUNNABLE = Set.of("python", "js", "java");
    /** Other names of those languages, refused so that no program goes unrun. */
    static final Set<String> REFUSED = Set.of("py", "python3", "javascript", "ecmascript", "mjs", "Java");

    /**
     * A runnable block.
     *
     * @param file     the page
     * @param line     the line of its opening fence, from 1
     * @param language {@code python}, {@code js} or {@code java}
     * @param options  the options from its fence line
     * @param exit     the expected exit status
     * @param code     the program
     * @param output   the expected standard output, or null when the page shows none
     */
    record Block(Path file, int line, String language, List<String> options, int exit, String code, String output) {
        String name() {
            return file + ":" + line;
        }
    }

    private MarkdownBlocks() {
    }

    /** README.md and every {@code .md} file under {@code docs/} of the repository at {@code root}, sorted. */
    static List<Path> pages(Path root) throws IOException {
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /**
     * The runnable blocks of {@code page}.
     *
     * @throws IllegalArgumentException for an unclosed fence or a refused fence name, naming the line
     */
    static List<Block> runnable(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        List<Block> blocks = new ArrayList<>();
        Block pending = null;
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            if (!line.startsWith("```")) {
                if (!line.isBlank()) {
                    pending = add(blocks, pending, null);
                }
                i++;
                continue;
            }
            List<String> info = Arrays.stream(line.substring(3).strip().split("\\s+")).filter(w -> !w.isEmpty())
                    .toList();
            String language = info.isEmpty() ? "" : info.getFirst();
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).startsWith("```")) {
                end++;
            }
            if (end == lines.size()) {
                throw new IllegalArgumentException(page + ":" + (i + 1) + ": the fence is never closed");
            }
            if (REFUSED.contains(language)) {
                throw new IllegalArgumentException(page + ":" + (i + 1) + ": fence '" + language + "': write "
                        + "python, js or java for a complete program, text for a fragment");
            }
            String body = String.join("\n", lines.subList(i + 1, end)) + "\n";
            if (language.equals("output") && pending != null) {
                pending = add(blocks, pending, body);
            } else {
                pending = add(blocks, pending, null);
                if (RUNNABLE.contains(language)) {
                    pending = block(page, i + 1, language, info.subList(1, info.size()), body);
                }
            }
            i = end + 1;
        }
        add(blocks, pending, null);
        return blocks;
    }

    /** Adds {@code pending} (if any) with {@code output}; returns null, the new pending block. */
    private static Block add(List<Block> blocks, Block pending, String output) {
        if (pending != null) {
            blocks.add(new Block(pending.file(), pending.line(), pending.language(), pending.options(),
                    pending.exit(), pending.code(), output));
        }
        return null;
    }

    private static Block block(Path page, int line, String language, List<String> words, String code) {
        List<String> options = new ArrayList<>();
        int exit = 0;
        for (String w : words) {
            if (w.startsWith("--polygpu.")) {
                options.add(w);
            } else if (w.startsWith("exit=")) {
                exit = Integer.parseInt(w.substring("exit=".length()));
            } else {
                throw new IllegalArgumentException(page + ":" + line + ": '" + w + "' on the fence line is neither "
                        + "a --polygpu. option nor exit=N");
            }
        }
        return new Block(page, line, language, List.copyOf(options), exit, code, null);
    }
}
