package org.polygpu.bench.study;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.polygpu.array.Access;
import org.polygpu.array.ElementType;

/**
 * The computations of a schedule as {@code ExportDAG} writes them (Graphviz DOT, every computation a node labelled
 * with its id, name and array arguments), in the order they were issued. Only what a program asked for is read
 * back: which arrays each kernel or host access used and how; the edges of the file are not, since they join only
 * computations that were still running when the later one was issued ({@link DataflowBound} derives the program's
 * own dependencies instead).
 *
 * @param computations every computation, by increasing id (the order the program issued them)
 */
record ScheduleGraph(List<Computation> computations) {
    private static final Pattern NODE = Pattern.compile("^\\s*c([0-9]+) \\[label=\"(.*)\", shape=(.*)];$",
            Pattern.MULTILINE);
    private static final Pattern ARGUMENT = Pattern.compile("^array #([0-9]+) (.+?)((?:\\[[0-9]+])+) ([a-z_]+)$");
    private static final Pattern DIMENSION = Pattern.compile("\\[([0-9]+)]");

    /** What kind of work a computation is, from the node's shape. */
    enum Kind { KERNEL, COPY, HOST, FREE }

    /** One array argument: its id, size in bytes and how the computation used it. */
    record Argument(long array, long bytes, Access access) {
    }

    /** One computation of the schedule. */
    record Computation(long id, Kind kind, String name, List<Argument> arguments) {
    }

    /** Reads {@code dot}; fails naming the file when a node cannot be read. */
    static ScheduleGraph read(Path dot) {
        String text;
        try {
            text = Files.readString(dot);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the DAG export " + dot, e);
        }
        return parse(text, dot.toString());
    }

    /** Parses DOT text; {@code source} names it in errors. */
    static ScheduleGraph parse(String text, String source) {
        List<Computation> nodes = new ArrayList<>();
        Matcher m = NODE.matcher(text);
        while (m.find()) {
            String[] lines = m.group(2).split("\\\\n");
            String first = lines[0];
            int colon = first.indexOf(": ");
            String name = colon < 0 ? first : first.substring(colon + 2);
            List<Argument> arguments = new ArrayList<>();
            for (int i = 1; i < lines.length; i++) {
                arguments.add(argument(lines[i], source));
            }
            nodes.add(new Computation(Long.parseLong(m.group(1)), kind(m.group(3), source), name, arguments));
        }
        nodes.sort(Comparator.comparingLong(Computation::id));
        return new ScheduleGraph(List.copyOf(nodes));
    }

    private static Kind kind(String shape, String source) {
        return switch (shape) {
            case "box" -> Kind.KERNEL;
            case "box, style=rounded" -> Kind.COPY;
            case "ellipse" -> Kind.HOST;
            case "octagon" -> Kind.FREE;
            default -> throw new IllegalStateException(source + ": a node of unknown shape '" + shape + "'");
        };
    }

    private static Argument argument(String line, String source) {
        Matcher m = ARGUMENT.matcher(line);
        if (!m.matches()) {
            throw new IllegalStateException(source + ": cannot read the argument '" + line + "'");
        }
        long elements = 1;
        Matcher d = DIMENSION.matcher(m.group(3));
        while (d.find()) {
            elements = Math.multiplyExact(elements, Long.parseLong(d.group(1)));
        }
        long bytes = Math.multiplyExact(elements, ElementType.fromCName(m.group(2)).bytes());
        Access access = switch (m.group(4)) {
            case "read" -> Access.READ;
            case "write" -> Access.WRITE;
            case "read_write" -> Access.READ_WRITE;
            default -> throw new IllegalStateException(source + ": unknown access '" + m.group(4) + "' in '" + line
                    + "'");
        };
        return new Argument(Long.parseLong(m.group(1)), bytes, access);
    }
}
