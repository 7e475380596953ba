package org.polygpu.bench.fidelity;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.polygpu.emulator.DeviceModel;

/**
 * Compares the emulator with a calibration directory's measurements ({@code scripts/fidelity.sh}): runs every
 * measured kernel, concurrent launch and copy on one emulated GPU of the matching model and prints the tables and
 * the errors ({@link FidelityReport}). The wall clock around concurrent launches includes host-side costs of the
 * measurement (its launch calls and the synchronisation, in Python) that are the same whatever the number of
 * streams: the difference between the real and the emulated time on one stream is taken as that overhead and added
 * to the emulated time on every stream count of the same grid, so that the comparison is about the device's
 * sharing (the one-stream rows then agree by construction; kernels.csv checks the kernel alone). The kernels were
 * timed in batches of back-to-back launches that their host issued no faster than it issues empty ones
 * ({@link Measurements#batchFloorUs()}): the emulated time per launch is the kernel's alone, launch cost included, or
 * that floor, whichever is longer ({@link org.polygpu.emulator.DeviceModelFit#batchNanos}).
 *
 * <p>Usage: {@code Fidelity [MEASUREMENTS_DIR [MODEL]]}; the directory defaults to {@code ../shared/calibration/h100}
 * when it exists, else the repository's {@code calibration/h100}; the model to the directory's name ({@code h100}),
 * a preset or a device-model file.
 */
public final class Fidelity {
    private Fidelity() {
    }

    public static void main(String[] args) {
        Path dir = args.length > 0 ? Path.of(args[0]) : defaultDirectory();
        String modelName = args.length > 1 ? args[1] : dir.toAbsolutePath().normalize().getFileName().toString();
        DeviceModel model = DeviceModel.resolve(modelName);
        Measurements m = Measurements.read(dir);
        System.out.println("measurements: " + dir + "; device model: " + model.describe());
        System.out.println(m.batchFloorUs() > 0
                ? String.format(Locale.ROOT, "batches of launches: at least %.2f us per launch (launch.csv: the host's"
                        + " back-to-back empty launches)", m.batchFloorUs())
                : "batches of launches: no empty kernel's batch in launch.csv, kernels compared alone");
        report(m, new EmulatedRuns(model)).print(System.out::println);
    }

    static Path defaultDirectory() {
        Path shared = Path.of("..", "shared", "calibration", "h100");
        return Files.isDirectory(shared) ? shared : Path.of("calibration", "h100");
    }

    /** Every row of {@code m} run on {@code runs}. */
    public static FidelityReport report(Measurements m, EmulatedRuns runs) {
        List<FidelityReport.Compared> kernels = new ArrayList<>();
        for (Measurements.KernelRow r : m.kernels()) {
            long nanos = runs.kernel(StudyLaunch.of(r.kernel(), r.size()), r.grid(), r.block()).nanos();
            kernels.add(new FidelityReport.Compared(r.kernel() + " | " + r.size() + " | " + r.grid(), r.batchUs(),
                    Math.max(m.batchFloorUs(), nanos / 1e3)));
        }
        List<FidelityReport.Compared> concurrency = new ArrayList<>();
        Map<String, double[]> alone = new HashMap<>();
        for (Measurements.ConcurrencyRow r : m.concurrency()) {
            long nanos = runs.concurrent(StudyLaunch.of(qualified(r.kernel()), "n=" + r.n()), r.grid(), r.block(),
                    r.streams());
            String key = r.kernel() + " " + r.n() + " " + r.grid() + " " + r.block();
            if (r.streams() == 1) {
                alone.put(key, new double[] {r.wallUs(), nanos / 1e3});
            }
            double[] one = alone.get(key);
            if (one == null) {
                throw new IllegalArgumentException("concurrency.csv: no 1-stream row before " + key + " on "
                        + r.streams() + " streams");
            }
            concurrency.add(new FidelityReport.Compared(String.format(Locale.ROOT, "%s n=%d grid %d, %d streams",
                    r.kernel(), r.n(), r.grid(), r.streams()), r.wallUs(), nanos / 1e3 + one[0] - one[1]));
        }
        List<FidelityReport.Compared> copies = new ArrayList<>();
        for (Measurements.CopyRow r : m.copies()) {
            long nanos = runs.copy(r.direction(), !r.hostMemory().equals("pageable"), r.bytes());
            copies.add(new FidelityReport.Compared(r.bytes() + " B " + r.direction() + " " + r.hostMemory(),
                    r.medianUs(), nanos / 1e3));
        }
        return new FidelityReport(kernels, concurrency, copies);
    }

    /** The concurrency file names kernels without their file: {@code black_scholes} is {@code bs.black_scholes}. */
    private static String qualified(String kernel) {
        return kernel.contains(".") ? kernel : switch (kernel) {
            case "black_scholes" -> "bs.black_scholes";
            case "square", "diff_sum" -> "vec." + kernel;
            default -> throw new IllegalArgumentException("unknown kernel '" + kernel + "' in concurrency.csv");
        };
    }
}
