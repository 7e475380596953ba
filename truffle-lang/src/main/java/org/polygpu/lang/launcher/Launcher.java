package org.polygpu.lang.launcher;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.graalvm.options.OptionDescriptor;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.Language;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.polygpu.backend.Clusters;
import org.polygpu.config.OptionValue;
import org.polygpu.lang.ContextOptions;
import org.polygpu.lang.OptionFiles;
import org.polygpu.lang.launcher.commands.CalibrateCommand;
import org.polygpu.lang.launcher.commands.InfoCommand;
import org.polygpu.lang.launcher.commands.ProfileInterconnectCommand;

/**
 * The main class of {@code bin/polygpu}: runs a Python or JavaScript script (GraalPy, GraalJS) in a polyglot
 * context where the {@code polygpu} language is available, with the {@code --polygpu.*} options given before the
 * script; or runs the {@code info}, {@code profile-interconnect} and {@code calibrate} subcommands.
 *
 * <p>Exit status: the script's own ({@code sys.exit(3)} gives 3), 0 when it ends normally, 1 for an uncaught guest
 * error (its message and guest stack are printed on stderr), 2 for a bad command line or bad options.
 */
public final class Launcher {
    /** Exit status for an uncaught guest error. */
    static final int GUEST_ERROR = 1;
    /** Exit status for a malformed command line or a rejected option. */
    static final int USAGE_ERROR = 2;

    private Launcher() {
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.in, System.out, System.err, null));
    }

    /**
     * Runs a command line as {@code bin/polygpu} would and returns its exit status.
     *
     * @param engine an engine to share between runs (tests), or null for a new one per run
     */
    public static int run(List<String> args, InputStream in, PrintStream out, PrintStream err, Engine engine) {
        CommandLine cl;
        try {
            cl = CommandLine.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("polygpu: " + e.getMessage());
            err.println(CommandLine.USAGE);
            return USAGE_ERROR;
        }
        return switch (cl.command()) {
            case "help" -> help(out);
            case "info", "profile-interconnect", "calibrate" -> runCommand(cl, out, err);
            default -> runScript(cl, in, out, err, engine);
        };
    }

    /** A subcommand, with the polygpu options parsed and checked as a context would. */
    private static int runCommand(CommandLine cl, PrintStream out, PrintStream err) {
        ContextOptions options;
        try {
            options = ContextOptions.parse(cl.polygpuOptions());
            OptionFiles.check(options);
        } catch (IllegalArgumentException e) {
            err.println("polygpu " + cl.command() + ": " + e.getMessage());
            return USAGE_ERROR;
        }
        try {
            // Under a cluster, every rank but 0 serves rank 0's command from here on and never returns.
            Clusters.join(options.cluster(), options.backend(), options.backendOptions());
        } catch (RuntimeException e) {
            err.println("polygpu " + cl.command() + ": " + e.getMessage());
            return USAGE_ERROR;
        }
        return switch (cl.command()) {
            case "info" -> InfoCommand.run(cl.arguments(), options.backend(), options.backendOptions(),
                    options.cluster(), out, err);
            case "calibrate" -> CalibrateCommand.run(cl.arguments(), options.backend(), options.backendOptions(), out,
                    err);
            default -> ProfileInterconnectCommand.run(cl.arguments(), options.backend(), options.backendOptions(),
                    options.cluster(), out, err);
        };
    }

    private static int runScript(CommandLine cl, InputStream in, PrintStream out, PrintStream err, Engine engine) {
        Source source;
        try {
            source = cl.file() != null ? Source.newBuilder(cl.language(), new File(cl.file())).build()
                    : Source.newBuilder(cl.language(), cl.code(), cl.language().equals("python") ? "<string>"
                            : "<eval>").build();
        } catch (IOException e) {
            err.println("polygpu: cannot read " + cl.file() + ": " + e.getMessage());
            return USAGE_ERROR;
        }
        Context.Builder builder = Context.newBuilder().allowAllAccess(true).in(in).out(out).err(err)
                .options(cl.options())
                .arguments("python", pythonArgv(cl))
                .arguments("js", cl.arguments().toArray(String[]::new));
        if (cl.language().equals("js") && !cl.options().containsKey("js.shell")) {
            builder.option("js.shell", "true"); // quit(status) ends the script with that exit status
        }
        if (engine != null) {
            builder.engine(engine);
        }
        Context context;
        try {
            context = builder.build();
        } catch (IllegalArgumentException e) {
            err.println("polygpu: " + e.getMessage());
            return USAGE_ERROR;
        }
        try (context) {
            try {
                context.initialize("polygpu"); // options that only fail together (a topology too small) fail here
            } catch (PolyglotException e) {
                err.println(e.getMessage());
                return USAGE_ERROR;
            }
            context.eval(source);
            return 0;
        } catch (PolyglotException e) {
            return report(e, err);
        }
    }

    /** Python's {@code sys.argv}: the script (or {@code -c}) then its arguments. */
    private static String[] pythonArgv(CommandLine cl) {
        List<String> argv = new ArrayList<>();
        argv.add(cl.file() != null ? cl.file() : "-c");
        argv.addAll(cl.arguments());
        return argv.toArray(String[]::new);
    }

    private static int report(PolyglotException e, PrintStream err) {
        if (e.isExit()) {
            return e.getExitStatus();
        }
        if (e.isCancelled() || e.isInterrupted()) {
            err.println("polygpu: " + e.getMessage());
            return GUEST_ERROR;
        }
        if (e.isHostException() || e.isInternalError()) {
            err.println("polygpu: internal error: " + e.getMessage());
            e.printStackTrace(err);
            return GUEST_ERROR;
        }
        err.println(e.getMessage());
        for (PolyglotException.StackFrame frame : e.getPolyglotStackTrace()) {
            if (frame.isGuestFrame()) {
                err.println("    at " + frame);
            }
        }
        return GUEST_ERROR;
    }

    private static int help(PrintStream out) {
        out.println(CommandLine.USAGE);
        out.println();
        out.println("polygpu options:");
        try (Engine engine = Engine.newBuilder("polygpu").option("engine.WarnInterpreterOnly", "false").build()) {
            Language polygpu = engine.getLanguages().get("polygpu");
            for (OptionDescriptor d : polygpu.getOptions()) {
                Object value = d.getKey().getDefaultValue();
                String syntax = d.getUsageSyntax() != null ? d.getUsageSyntax()
                        : value instanceof Boolean ? "true|false" : "<value>";
                String shown = String.valueOf(value instanceof OptionValue v ? v.optionValue() : value);
                // Text options left empty mean "unset"; their help says what that does.
                out.printf("  --%s=%s%n      %s%s%n", d.getName(), syntax, d.getHelp(),
                        shown.isEmpty() ? "" : " (default: " + shown + ")");
            }
        }
        return 0;
    }
}
