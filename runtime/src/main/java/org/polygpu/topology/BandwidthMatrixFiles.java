package org.polygpu.topology;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;

/**
 * Where a real machine's bandwidth matrix comes from, in this order: the {@code BandwidthMatrix} option (a CSV path
 * or a preset name), the environment variable {@code POLYGPU_BANDWIDTH}, the file {@code ~/.polygpu/bandwidth.csv}
 * that {@code polygpu profile-interconnect} writes, and otherwise a measurement made on the spot with the
 * {@link InterconnectProfiler} and saved to that file for the next run.
 *
 * <p>The option value {@value #UNMEASURED} skips all of this with a uniform placeholder (every link 1 GB/s), for
 * commands that must not measure, such as {@code polygpu info} and the profiler itself. A configured matrix that
 * is missing, unreadable, malformed or covers fewer GPUs than are used is an error naming the file; the default
 * file in those cases is measured again and rewritten, since it is polygpu's own. Stateless.
 */
public final class BandwidthMatrixFiles {
    /** The environment variable naming a matrix file, read when the option is not set. */
    public static final String ENVIRONMENT_VARIABLE = "POLYGPU_BANDWIDTH";
    /** The option value asking for the uniform placeholder instead of a measured matrix. */
    public static final String UNMEASURED = "unmeasured";

    private BandwidthMatrixFiles() {
    }

    /** {@code ~/.polygpu/bandwidth.csv}. */
    public static Path defaultFile() {
        return Path.of(System.getProperty("user.home"), ".polygpu", "bandwidth.csv");
    }

    /**
     * A chosen matrix.
     *
     * @param matrix the matrix, restricted to the GPUs in use
     * @param source where it came from, for the user: a path, a preset, {@code measured now, saved to …}
     */
    public record Choice(BandwidthMatrix matrix, String source) {
    }

    /** The matrix the user configured (option, else environment variable), if any, as a path or preset name. */
    public static Optional<String> configured(Optional<String> option, Map<String, String> environment) {
        if (option.isPresent() && !option.get().isBlank()) {
            return Optional.of(option.get().strip());
        }
        String variable = environment.get(ENVIRONMENT_VARIABLE);
        return variable == null || variable.isBlank() ? Optional.empty() : Optional.of(variable.strip());
    }

    /**
     * Chooses the matrix for the {@code backend.deviceCount()} GPUs of {@code backend}.
     *
     * @param defaultFile where measured matrices are kept ({@link #defaultFile()} outside tests)
     * @param settings    how to measure when nothing is found
     * @throws IllegalArgumentException naming the file when a configured matrix is missing, malformed or too small
     * @throws BackendException         naming the file when a configured matrix cannot be read
     */
    public static Choice choose(Backend backend, Optional<String> option, Map<String, String> environment,
                                Path defaultFile, InterconnectProfiler.Settings settings) {
        int gpus = backend.deviceCount();
        Optional<String> configured = configured(option, environment);
        if (configured.isPresent()) {
            String name = configured.get();
            if (name.equals(UNMEASURED)) {
                return new Choice(uniform(gpus), "unmeasured (uniform 1 GB/s placeholder)");
            }
            String via = option.isPresent() ? "option BandwidthMatrix" : ENVIRONMENT_VARIABLE;
            BandwidthMatrix m = read(name, via);
            if (m.gpuCount() < gpus) {
                throw new IllegalArgumentException("the bandwidth matrix " + name + " (" + via + ") describes "
                        + gpus(m.gpuCount()) + " but " + gpus + " are used; measure this machine with "
                        + "`polygpu profile-interconnect --out " + name + "`");
            }
            return new Choice(restrict(m, gpus), name);
        }
        String stale = "";
        if (Files.exists(defaultFile)) {
            try {
                BandwidthMatrix m = BandwidthMatrixLoader.load(defaultFile);
                if (m.gpuCount() >= gpus) {
                    return new Choice(restrict(m, gpus), defaultFile.toString());
                }
                stale = defaultFile + " describes only " + gpus(m.gpuCount()) + "; ";
            } catch (IllegalArgumentException | UncheckedIOException e) {
                stale = "the saved matrix was unusable (" + e.getMessage() + "); ";
            }
        }
        return measure(backend, defaultFile, settings, stale);
    }

    private static Choice measure(Backend backend, Path file, InterconnectProfiler.Settings settings, String why) {
        long started = System.nanoTime();
        InterconnectProfile profile = new InterconnectProfiler(backend, settings).profile(InterconnectProfiler
                .Progress.NONE);
        String seconds = String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - started) / 1e9);
        String saved;
        try {
            BandwidthMatrixWriter.write(BandwidthMatrixWriter.toCsv(profile), file);
            saved = "saved to " + file;
        } catch (UncheckedIOException e) {
            saved = "not saved: " + e.getMessage();
        }
        return new Choice(profile.toMatrix(), why + "measured now in " + seconds + ", " + saved);
    }

    private static BandwidthMatrix read(String pathOrPreset, String via) {
        try {
            return BandwidthMatrixLoader.resolve(pathOrPreset);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (from " + via + ")", e);
        } catch (UncheckedIOException e) {
            throw new BackendException(e.getMessage() + " (from " + via + ")", e);
        }
    }

    private static String gpus(int n) {
        return n + (n == 1 ? " GPU" : " GPUs");
    }

    private static BandwidthMatrix restrict(BandwidthMatrix m, int gpus) {
        return m.gpuCount() == gpus ? m : m.restrictedTo(gpus);
    }

    /** Every link 1 GB/s, host-host 0. */
    static BandwidthMatrix uniform(int gpus) {
        double[][] v = new double[gpus + 1][gpus + 1];
        for (double[] row : v) {
            Arrays.fill(row, 1);
        }
        v[gpus][gpus] = 0;
        return new BandwidthMatrix(v);
    }
}
