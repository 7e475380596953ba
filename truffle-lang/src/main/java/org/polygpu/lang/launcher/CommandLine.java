package org.polygpu.lang.launcher;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The parsed command line of {@code bin/polygpu}:
 * {@code [--polygpu.X=v | --engine.X=v | --python.X=v | --js.X=v ...] (script.py|script.js|-c CODE|-e CODE) [args]},
 * with GraalVM's launcher flags that GrCUDA's scripts pass ({@code --experimental-options}, {@code --jvm},
 * {@code --polyglot}, {@code --vm.*}),
 * or a subcommand ({@code info}, {@code profile-interconnect}, {@code calibrate}) with its own arguments. Options come before the
 * script, as GraalVM's launchers take them; everything after the script is the script's.
 *
 * @param options    polyglot options by full name ({@code polygpu.NumberOfGPUs})
 * @param command    {@code run}, {@code help}, {@code info}, {@code profile-interconnect} or {@code calibrate}
 * @param language   {@code python} or {@code js} for {@code run}
 * @param file       the script path, or null for {@code -c}/{@code -e}
 * @param code       the code of {@code -c}/{@code -e}, or null
 * @param arguments  the script's arguments, or the subcommand's
 */
record CommandLine(Map<String, String> options, String command, String language, String file, String code,
                   List<String> arguments) {
    static final String USAGE = """
            usage: polygpu [options] script.py|script.js [args...]
                   polygpu [options] -c PYTHON_CODE [args...]
                   polygpu [options] -e JS_CODE [args...]
                   polygpu [options] info
                   polygpu [options] profile-interconnect [--out FILE] [...]
                   polygpu [options] calibrate [--out FILE] [--fit MEASUREMENTS]
            options:
              --polygpu.<Option>=<value>   a polygpu option (see --help for the list)
              --engine.*, --python.*, --js.*=<value>   other polyglot options
              --vm.<flag>                  a JVM flag, as GraalVM's launchers take it (--vm.Xmx8g: -Xmx8g; bin/polygpu)
              --jvm, --polyglot, --experimental-options   accepted, as GraalVM's launchers take them: polygpu
                                           always runs on the JVM, with Python and JavaScript, and allows
                                           experimental options
              --no-jit                     run without the Graal JIT compiler (bin/polygpu)
              --help                       this text and the polygpu options""";

    /**
     * Parses {@code args}.
     *
     * @throws IllegalArgumentException for a malformed command line, saying what is wrong
     */
    static CommandLine parse(List<String> args) {
        Map<String, String> options = new LinkedHashMap<>();
        int i = 0;
        while (i < args.size() && args.get(i).startsWith("--")) {
            String a = args.get(i++);
            if (a.equals("--help")) {
                return new CommandLine(options, "help", null, null, null, List.of());
            }
            // bin/polygpu handles the JIT flags and passes --vm.* flags to the JVM; --jvm and --polyglot describe
            // how polygpu always runs, and its contexts allow all access, experimental options included.
            if (a.equals("--no-jit") || a.equals("--jit") || a.equals("--jvm") || a.equals("--polyglot")
                    || a.equals("--experimental-options") || a.startsWith("--vm.")) {
                continue;
            }
            String body = a.substring(2);
            int eq = body.indexOf('=');
            String name = eq < 0 ? body : body.substring(0, eq);
            if (!name.contains(".")) {
                throw new IllegalArgumentException("unknown option '" + a + "'; polygpu options are written "
                        + "--polygpu.<Option>=<value>");
            }
            options.put(name, eq < 0 ? "true" : body.substring(eq + 1));
        }
        if (i >= args.size()) {
            throw new IllegalArgumentException("no script given");
        }
        String first = args.get(i);
        List<String> rest = List.copyOf(args.subList(i + 1, args.size()));
        switch (first) {
            case "-h", "help" -> {
                return new CommandLine(options, "help", null, null, null, List.of());
            }
            case "info", "profile-interconnect", "calibrate" -> {
                return new CommandLine(options, first, null, null, null, rest);
            }
            case "-c", "-e" -> {
                if (rest.isEmpty()) {
                    throw new IllegalArgumentException(first + " needs the code to run");
                }
                String language = first.equals("-c") ? "python" : "js";
                return new CommandLine(options, "run", language, null, rest.get(0), rest.subList(1, rest.size()));
            }
            default -> {
                if (first.startsWith("-")) {
                    throw new IllegalArgumentException("unknown argument '" + first + "'");
                }
                return new CommandLine(options, "run", languageOf(first), first, null, rest);
            }
        }
    }

    private static String languageOf(String file) {
        String lower = file.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".py")) {
            return "python";
        }
        if (lower.endsWith(".js") || lower.endsWith(".mjs")) {
            return "js";
        }
        throw new IllegalArgumentException("cannot tell the language of '" + file + "': scripts end in .py or .js");
    }

    /** The {@code polygpu.*} options by short name, for the subcommands. */
    Map<String, String> polygpuOptions() {
        Map<String, String> m = new LinkedHashMap<>();
        options.forEach((k, v) -> {
            if (k.startsWith("polygpu.")) {
                m.put(k.substring("polygpu.".length()), v);
            }
        });
        return m;
    }
}
