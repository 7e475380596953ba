package org.polygpu.lang.launcher.commands;

import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.Backends;
import org.polygpu.backend.ClusterOptions;
import org.polygpu.backend.Clusters;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.nvrtc.Nvrtc;
import org.polygpu.topology.BandwidthMatrixFiles;

/**
 * {@code polygpu info}: which backend the options choose and why, its devices (name, compute capability, memory,
 * SMs), which bandwidth matrix is in use, whether each backend on the class path can run here and why (such as the
 * CUDA driver found, or why none is usable), and NVRTC's version and path (or why it is missing).
 *
 * <p>It never measures the interconnect: when no matrix has been measured on a GPU machine yet, it says so instead
 * of starting the profiler.
 */
public final class InfoCommand {
    static final String USAGE = "usage: polygpu [--polygpu.Option=value ...] info\n"
            + "  Prints the backend, its devices, the bandwidth matrix in use, which backends can run here, and NVRTC.";

    private InfoCommand() {
    }

    /**
     * Runs the command.
     *
     * @param args    the arguments after {@code info}: none, or {@code --help}
     * @param backend the {@code Backend} option's value
     * @param options what the backend providers read
     * @return 0 on success, 1 when no backend can start, 2 for bad arguments
     */
    public static int run(List<String> args, String backend, BackendOptions options, PrintStream out,
                          PrintStream err) {
        return run(args, backend, options, ClusterOptions.none(), out, err);
    }

    /** {@link #run} over the devices of every rank of an MPI job under {@code Cluster=mpi} (on rank 0). */
    public static int run(List<String> args, String backend, BackendOptions options, ClusterOptions cluster,
                          PrintStream out, PrintStream err) {
        if (args.equals(List.of("--help")) || args.equals(List.of("-h"))) {
            out.println(USAGE);
            return 0;
        }
        if (!args.isEmpty()) {
            err.println("polygpu info: unexpected argument '" + args.get(0) + "'");
            err.println(USAGE);
            return 2;
        }
        boolean unmeasured = BandwidthMatrixFiles.configured(options.bandwidthMatrix(), System.getenv()).isEmpty()
                && !Files.exists(BandwidthMatrixFiles.defaultFile());
        BackendOptions opts = unmeasured ? options.withBandwidthMatrix(BandwidthMatrixFiles.UNMEASURED) : options;
        int status = 0;
        try {
            OpenedBackend opened = Clusters.open(cluster, Backends.open(backend, opts));
            try {
                printBackend(opened, out);
                printMatrix(opened, unmeasured && opened.measuredTopology(), out);
            } finally {
                opened.backend().close();
            }
        } catch (RuntimeException e) {
            err.println("polygpu info: " + e.getMessage());
            status = 1;
        }
        printAvailability(options, out);
        out.println("NVRTC: " + nvrtc(options.nvrtcLibrary().map(Object::toString).orElse(null)));
        return status;
    }

    private static void printBackend(OpenedBackend opened, PrintStream out) {
        Backend b = opened.backend();
        out.println("backend: " + b.name());
        out.println(opened.notice());
        out.println("devices: " + b.deviceCount());
        for (int d = 0; d < b.deviceCount(); d++) {
            DeviceProperties p = b.deviceProperties(d);
            out.println("  GPU " + d + ": " + p.name() + ", compute capability " + p.computeCapability() + ", "
                    + CommandOutput.gibibytes(p.totalMemory()) + ", " + p.multiprocessors() + " SMs");
        }
    }

    private static void printMatrix(OpenedBackend opened, boolean placeholder, PrintStream out) {
        if (placeholder) {
            out.println("bandwidth matrix: none measured yet; the runtime measures it on first use and saves it to "
                    + BandwidthMatrixFiles.defaultFile() + " (`polygpu profile-interconnect` does it now)");
            return;
        }
        out.println("bandwidth matrix: " + opened.source());
        out.print(CommandOutput.table(opened.bandwidth()));
    }

    /** Each provider's own report of whether it can run here, as {@code Backend=auto} weighs it. */
    private static void printAvailability(BackendOptions options, PrintStream out) {
        out.println("backends:");
        for (BackendProvider p : Backends.providers()) {
            BackendProvider.Availability a = p.probe(options);
            out.println("  " + p.name() + ": " + (a.usable() ? "usable, " : "not usable, ") + a.reason());
        }
    }

    private static String nvrtc(String explicitPath) {
        try {
            Nvrtc nvrtc = Nvrtc.load(explicitPath);
            return nvrtc.version() + " (" + nvrtc.libraryPath() + ")";
        } catch (RuntimeException e) {
            return "not available: " + CommandOutput.firstLine(e.getMessage());
        }
    }
}
