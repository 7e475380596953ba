package org.polygpu.lang.launcher.commands;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.polygpu.topology.BandwidthMatrix;

/** What the commands share: formatting sizes and the bandwidth matrix, and reading a command line. Stateless. */
final class CommandOutput {
    /**
     * A command's arguments as its parser read them, or, when {@code arguments} is null, the exit status the command
     * returns at once: 0 after {@code --help}, 2 after bad arguments.
     */
    record Parsed<A>(A arguments, int exitStatus) {
    }

    private CommandOutput() {
    }

    /**
     * {@code bytes} in GiB with one decimal, such as {@code 79.1 GiB}; below 1 GiB (an {@code EmulatedDeviceMemory}
     * for tests) in MiB, such as {@code 64.0 MiB}.
     */
    static String gibibytes(long bytes) {
        return bytes < 1L << 30 ? String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20))
                : String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    /** The matrix as an aligned table in GB/s, GPUs first and the host last, each line indented by two spaces. */
    static String table(BandwidthMatrix m) {
        int n = m.gpuCount();
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "  %-8s", "GB/s"));
        for (int j = 0; j <= n; j++) {
            t.append(String.format(Locale.ROOT, "%9s", label(j, n)));
        }
        t.append('\n');
        for (int i = 0; i <= n; i++) {
            t.append(String.format(Locale.ROOT, "  %-8s", label(i, n)));
            for (int j = 0; j <= n; j++) {
                t.append(String.format(Locale.ROOT, "%9.1f", m.bandwidth(i, j)));
            }
            t.append('\n');
        }
        return t.toString();
    }

    private static String label(int location, int gpus) {
        return location == gpus ? "host" : "GPU " + location;
    }

    /** The first line of a message, for one-line reports of long errors. */
    static String firstLine(String message) {
        int newline = message == null ? -1 : message.indexOf('\n');
        return message == null ? "" : newline < 0 ? message : message.substring(0, newline);
    }

    /**
     * Reads a command's arguments with {@code parser}: {@code --help} or {@code -h} prints {@code usage} to
     * {@code out}; an {@link IllegalArgumentException} from the parser prints {@code polygpu <command>: <message>}
     * and the usage to {@code err}.
     */
    static <A> Parsed<A> arguments(String command, List<String> args, Function<List<String>, A> parser, String usage,
                                   PrintStream out, PrintStream err) {
        if (args.equals(List.of("--help")) || args.equals(List.of("-h"))) {
            out.println(usage);
            return new Parsed<>(null, 0);
        }
        try {
            return new Parsed<>(parser.apply(args), 0);
        } catch (IllegalArgumentException e) {
            err.println("polygpu " + command + ": " + e.getMessage());
            err.println(usage);
            return new Parsed<>(null, 2);
        }
    }
}
