package org.polygpu.lang.launcher.commands;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.Backends;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.calibration.CalibrationSettings;
import org.polygpu.calibration.CalibrationSuite;
import org.polygpu.calibration.CalibrationFit;
import org.polygpu.calibration.Measurements;
import org.polygpu.config.EmulatedExecution;
import org.polygpu.topology.BandwidthMatrixFiles;

/**
 * {@code polygpu calibrate [--out FILE] [--fit MEASUREMENTS]}: measures GPU 0 of the CUDA backend (or, when asked
 * with {@code Backend=emulated}, an emulated device) with the {@link CalibrationSuite}, drawing a progress bar on
 * stderr, writes the measurements beside {@code FILE}, fits a device model to them through the {@link
 * CalibrationFit} service and writes it to {@code FILE} (default {@code ~/.polygpu/device-model.json}, beside where
 * {@code profile-interconnect} writes the bandwidth matrix; {@code device-model-emulated.json} for the emulator).
 * Prints a summary of the fit on stdout. With {@code --fit} it fits again from a measurements file, measuring
 * nothing. On a machine without a GPU it says so and fails.
 */
public final class CalibrateCommand {
    static final String USAGE = """
            usage: polygpu [--polygpu.Option=value ...] calibrate [--out FILE] [--fit MEASUREMENTS]
              Measures GPU 0 with microbenchmarks (memory, instruction classes, atomics, launches, streams, copies)
              and writes a device model the emulator loads (--polygpu.EmulatedDeviceModel=FILE), with the
              measurements beside it (FILE less .json, plus .measurements.csv). Measures the CUDA backend's GPU unless
              --polygpu.Backend=emulated asks for a round trip on the emulator.
              --out FILE             the device-model file (default ~/.polygpu/device-model.json;
                                     device-model-emulated.json beside it for Backend=emulated)
              --fit MEASUREMENTS     fit again from a measurements file instead of measuring (default FILE: the
                                     model beside it)""";

    private CalibrateCommand() {
    }

    /** The parsed arguments; null when not given. */
    private record Arguments(Path out, Path fit) {
    }

    /**
     * Runs the command.
     *
     * @param args    the arguments after {@code calibrate}
     * @param backend the {@code Backend} option's value: {@code auto} and {@code cuda} measure a GPU, {@code
     *                emulated} an emulated device
     * @param options what the backend providers read
     * @return 0 on success, 1 when there is no GPU, the suite fails or a file cannot be written, 2 for bad arguments
     */
    public static int run(List<String> args, String backend, BackendOptions options, PrintStream out,
                          PrintStream err) {
        CommandOutput.Parsed<Arguments> read = CommandOutput.arguments("calibrate", args, CalibrateCommand::parse, USAGE, out,
                err);
        if (read.arguments() == null) {
            return read.exitStatus();
        }
        Arguments parsed = read.arguments();
        try {
            if (parsed.fit() != null) {
                Measurements m = Measurements.read(parsed.fit());
                Path file = parsed.out() != null ? parsed.out() : modelBeside(parsed.fit());
                return fit(m, file, out, err);
            }
            return measure(parsed, backend.equals(Backends.AUTO) ? "cuda" : backend, options, out, err);
        } catch (RuntimeException e) {
            err.println("polygpu calibrate: " + e.getMessage());
            return 1;
        }
    }

    private static int measure(Arguments args, String choice, BackendOptions options, PrintStream out,
                               PrintStream err) {
        String noGpu = noGpu(choice, options);
        if (noGpu != null) {
            err.println("polygpu calibrate: no GPU: " + noGpu);
            return 1;
        }
        // The matrix is not needed; the emulator interprets a sample of each large grid, which is all its timing needs.
        BackendOptions opts = options.withBandwidthMatrix(BandwidthMatrixFiles.UNMEASURED)
                .withEmulatedExecution(EmulatedExecution.SAMPLED)
                .withEmulatedDevices(options.emulatedDevices() == 0 ? 1 : options.emulatedDevices());
        OpenedBackend opened = Backends.open(choice, opts);
        Measurements m;
        long start = System.nanoTime();
        boolean simulated = opened.backend().clock() == Backend.Clock.VIRTUAL;
        Path file = args.out() != null ? args.out() : defaultOutput(opened);
        try {
            err.println(opened.notice());
            Backend b = opened.backend();
            err.println("calibrating GPU 0 of the " + b.name() + " backend: " + b.deviceProperties(0).name());
            m = new CalibrationSuite(b, 0, CalibrationSettings.defaults(b)).run(new ProgressBar(err));
        } finally {
            opened.backend().close();
        }
        out.println(String.format(Locale.ROOT, "measured %d figures in %.1f s", m.rows().size(),
                (System.nanoTime() - start) / 1e9));
        if (simulated) {
            out.println("Backend=" + choice + ": a round trip on a simulated device; the model shows what the suite "
                    + "and the fit recover from " + m.device().name() + ", not from a real GPU");
        }
        return fit(m, file, out, err);
    }

    /** Writes the measurements beside {@code file}, then the model fitted to them to {@code file}. */
    private static int fit(Measurements m, Path file, PrintStream out, PrintStream err) {
        Path measurements = measurementsBeside(file);
        createParent(file);
        m.write(measurements);
        out.println("measurements: " + measurements.toAbsolutePath());
        CalibrationFit fit = CalibrationFit.installed().orElse(null);
        if (fit == null) {
            err.println("polygpu calibrate: no device-model fit on the class path (the emulator module provides it); "
                    + "fit later with `polygpu calibrate --fit " + measurements + "`");
            return 1;
        }
        String source = "calibrated on " + m.device().name() + ", " + m.date() + ", polygpu calibrate";
        List<String> summary = fit.fitAndWrite(m, source, file);
        out.println("device model: " + file.toAbsolutePath());
        summary.forEach(line -> out.println("  " + line));
        out.println("use it with --polygpu.Backend=emulated --polygpu.EmulatedDeviceModel=" + file
                + "; check it against real kernels with scripts/fidelity.sh");
        return 0;
    }

    private static void createParent(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + parent, e);
        }
    }

    /** Why {@code choice} cannot run here, as its provider's probe says, or null when it can. */
    private static String noGpu(String choice, BackendOptions options) {
        for (BackendProvider p : Backends.providers()) {
            if (p.name().equals(choice)) {
                BackendProvider.Availability a = p.probe(options);
                return a.usable() ? null : a.reason();
            }
        }
        return choice.equals("cuda") ? "the CUDA backend is not on the class path" : null;
    }

    /**
     * {@code ~/.polygpu/device-model.json} for a backend whose topology is this machine's (real GPUs), beside the
     * bandwidth matrix that {@code profile-interconnect} writes; another backend's model goes beside it as {@code
     * device-model-<backend>.json}, so that an emulated model is never taken for this machine's GPU.
     */
    static Path defaultOutput(OpenedBackend opened) {
        Path file = BandwidthMatrixFiles.defaultFile().resolveSibling("device-model.json");
        return opened.measuredTopology() ? file
                : file.resolveSibling("device-model-" + opened.backend().name() + ".json");
    }

    /** {@code x.json} → {@code x.measurements.csv}; another name gets {@code .measurements.csv} appended. */
    static Path measurementsBeside(Path model) {
        String name = model.getFileName().toString();
        String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return model.resolveSibling(stem + ".measurements.csv");
    }

    /** {@code x.measurements.csv} → {@code x.json}, the inverse of {@link #measurementsBeside}. */
    static Path modelBeside(Path measurements) {
        String name = measurements.getFileName().toString();
        String stem = name.endsWith(".measurements.csv") ? name.substring(0, name.length() - 17) : name;
        return measurements.resolveSibling(stem + ".json");
    }

    private static Arguments parse(List<String> args) {
        Path out = null;
        Path fit = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.equals("--out") && !a.equals("--fit")) {
                throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
            if (i + 1 == args.size()) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            Path value = Path.of(args.get(++i));
            if (a.equals("--out")) {
                out = value;
            } else {
                fit = value;
            }
        }
        return new Arguments(out, fit);
    }
}
