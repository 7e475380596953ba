package org.polygpu.lang.launcher.commands;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.ClusterOptions;
import org.polygpu.backend.Clusters;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.topology.BandwidthMatrixFiles;
import org.polygpu.topology.BandwidthMatrixWriter;
import org.polygpu.topology.InterconnectProfile;
import org.polygpu.topology.InterconnectProfiler;

/**
 * {@code polygpu profile-interconnect [--out FILE] [--size BYTES] [--repeats N]}: measures the bandwidth matrix of
 * the backend the options choose with the {@link InterconnectProfiler}, drawing a progress bar on stderr, and writes
 * the {@code From,To,Bandwidth} CSV to {@code FILE} (default {@code ~/.polygpu/bandwidth.csv}, which the runtime
 * reads when {@code BandwidthMatrix} is not set; on the emulator {@code ~/.polygpu/bandwidth-emulated.csv}). Prints
 * the file and the matrix the runtime will load from it.
 */
public final class ProfileInterconnectCommand {
    static final String USAGE = """
            usage: polygpu [--polygpu.Option=value ...] profile-interconnect [--out FILE] [--size BYTES] [--repeats N]
              Measures host<->GPU and GPU<->GPU copy bandwidth and writes the From,To,Bandwidth CSV (GB/s, -1 = host).
              --out FILE     where to write the CSV (default ~/.polygpu/bandwidth.csv on GPUs, which the runtime
                             reads; bandwidth-emulated.csv beside it on the emulator)
              --size BYTES   the larger timed copy, e.g. 67108864 or 64M (default 64M on GPUs, 4M on the emulator)
              --repeats N    timed copies of each size per link; the median is used (default 10 on GPUs)""";

    private ProfileInterconnectCommand() {
    }

    /** The parsed arguments; {@code bytes} and {@code repeats} are 0 when not given. */
    private record Arguments(Path out, long bytes, int repeats) {
    }

    /**
     * Runs the command.
     *
     * @param args    the arguments after {@code profile-interconnect}
     * @param backend the {@code Backend} option's value
     * @param options what the backend providers read
     * @return 0 on success, 1 when the backend cannot start or the file cannot be written, 2 for bad arguments
     */
    public static int run(List<String> args, String backend, BackendOptions options, PrintStream out,
                          PrintStream err) {
        return run(args, backend, options, ClusterOptions.none(), out, err);
    }

    /** {@link #run} over the devices of every rank of an MPI job under {@code Cluster=mpi} (on rank 0). */
    public static int run(List<String> args, String backend, BackendOptions options, ClusterOptions cluster,
                          PrintStream out, PrintStream err) {
        CommandOutput.Parsed<Arguments> read = CommandOutput.arguments("profile-interconnect", args, ProfileInterconnectCommand::parse, USAGE, out,
                err);
        if (read.arguments() == null) {
            return read.exitStatus();
        }
        Arguments parsed = read.arguments();
        // The matrix is what is being measured: opening the backend must not measure it first.
        BackendOptions opts = options.withBandwidthMatrix(BandwidthMatrixFiles.UNMEASURED);
        try {
            OpenedBackend opened = Clusters.open(cluster, Backends.open(backend, opts));
            try {
                err.println(opened.notice());
                profile(opened, parsed, out, err);
            } finally {
                opened.backend().close();
            }
        } catch (RuntimeException e) {
            err.println("polygpu profile-interconnect: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    private static void profile(OpenedBackend opened, Arguments args, PrintStream out, PrintStream err) {
        Backend backend = opened.backend();
        InterconnectProfiler.Settings settings = InterconnectProfiler.Settings.defaults(backend);
        if (args.bytes() > 0) {
            settings = settings.withBytes(args.bytes());
        }
        if (args.repeats() > 0) {
            settings = settings.withRepeats(args.repeats());
        }
        err.println("profiling " + backend.deviceCount() + " " + backend.name() + " device"
                + (backend.deviceCount() == 1 ? "" : "s") + " with " + settings.bytes() + "-byte copies, "
                + settings.repeats() + " repetitions");
        InterconnectProfile profile = new InterconnectProfiler(backend, settings).profile(new ProgressBar(err));
        Path file = args.out() != null ? args.out() : defaultOutput(opened);
        BandwidthMatrixWriter.write(BandwidthMatrixWriter.toCsv(profile), file);
        out.println("wrote " + file.toAbsolutePath());
        out.print(CommandOutput.table(profile.toMatrix()));
    }

    /**
     * {@code ~/.polygpu/bandwidth.csv} for a backend whose topology is this machine's (real GPUs); another backend's
     * matrix goes beside it as {@code bandwidth-<backend>.csv}, so that an emulated topology is never taken for this
     * machine's GPUs.
     */
    static Path defaultOutput(OpenedBackend opened) {
        Path file = BandwidthMatrixFiles.defaultFile();
        return opened.measuredTopology() ? file
                : file.resolveSibling("bandwidth-" + opened.backend().name() + ".csv");
    }

    private static Arguments parse(List<String> args) {
        Path out = null;
        long bytes = 0;
        int repeats = 0;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.equals("--out") && !a.equals("--size") && !a.equals("--repeats")) {
                throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
            if (i + 1 == args.size()) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String value = args.get(++i);
            switch (a) {
                case "--out" -> out = Path.of(value);
                case "--size" -> bytes = size(value);
                default -> repeats = positive(value, "--repeats");
            }
        }
        return new Arguments(out, bytes, repeats);
    }

    /** Bytes, optionally with a binary suffix K, M or G ({@code 64M} = 64 MiB), at least the profiler's minimum. */
    private static long size(String value) {
        String v = value.strip().toUpperCase(Locale.ROOT);
        long unit = switch (v.isEmpty() ? ' ' : v.charAt(v.length() - 1)) {
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            default -> 1;
        };
        String digits = unit == 1 ? v : v.substring(0, v.length() - 1);
        long bytes;
        try {
            bytes = Math.multiplyExact(Long.parseLong(digits), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("--size expects a number of bytes such as 67108864 or 64M, got '"
                    + value + "'", e);
        }
        if (bytes < InterconnectProfiler.Settings.MIN_BYTES) {
            throw new IllegalArgumentException("--size must be at least " + InterconnectProfiler.Settings.MIN_BYTES
                    + " bytes, got " + value);
        }
        return bytes;
    }

    private static int positive(String value, String flag) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(flag + " expects a whole number of at least 1, got '" + value + "'");
    }
}
