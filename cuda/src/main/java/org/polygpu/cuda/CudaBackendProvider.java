package org.polygpu.cuda;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.config.MemoryModel;
import org.polygpu.config.OptionValue;
import org.polygpu.topology.BandwidthMatrixFiles;
import org.polygpu.topology.InterconnectProfiler;

/**
 * Provides the CUDA backend as {@code Backend=cuda}, first in {@code auto}'s order when a GPU is usable
 * ({@link CudaDetection}). Options: {@code MemoryModel} ({@code explicit}, the default, or {@code managed}) and
 * {@code BandwidthMatrix} (a CSV path or preset; see {@link BandwidthMatrixFiles} for what happens without it). It
 * also reads two options that others own: {@code NumberOfGPUs}, so that only the devices used get a context (more
 * than are present uses those present and says so in the notice), and {@code NvrtcLibrary}, for compiling CUDA
 * source.
 */
public final class CudaBackendProvider implements BackendProvider {
    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public Set<String> optionNames() {
        return Set.of("MemoryModel", BandwidthMatrixFiles.OPTION);
    }

    @Override
    public Availability probe(Map<String, String> options) {
        CudaDetection.Result r = CudaDetection.detect();
        return new Availability(r.usable(), r.reason());
    }

    @Override
    public int priority() {
        return 0;
    }

    @Override
    public OpenedBackend open(Map<String, String> options) {
        MemoryModel model = OptionValue.parse(MemoryModel.class, "MemoryModel",
                options.getOrDefault("MemoryModel", MemoryModel.EXPLICIT.optionValue()));
        int requested = requestedGpus(options.get("NumberOfGPUs"));
        CudaDetection.Result detected = CudaDetection.detect();
        if (!detected.usable()) {
            throw new BackendException("Backend=cuda cannot run here: " + detected.reason());
        }
        CudaDriver driver = CudaDriver.system();
        int present = driver.deviceCount();
        int used = requested == 0 ? present : Math.min(requested, present);
        List<String> notes = new ArrayList<>();
        if (requested > present) {
            notes.add("NumberOfGPUs=" + requested + " but only " + present + " GPU" + (present == 1 ? " is" : "s are")
                    + " present; using " + present);
        }
        CudaBackend backend = CudaBackend.open(driver, used, model, options.get("NvrtcLibrary"));
        BandwidthMatrixFiles.Choice matrix;
        try {
            matrix = BandwidthMatrixFiles.choose(backend, options, System.getenv(), BandwidthMatrixFiles.defaultFile(),
                    InterconnectProfiler.Settings.defaults(backend));
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
        String notice = "using " + used + " CUDA GPU" + (used == 1 ? "" : "s") + " (" + deviceNames(backend)
                + "; driver " + detected.driverVersion() + ", MemoryModel=" + model.optionValue()
                + "); bandwidth matrix: " + matrix.source() + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
        return new OpenedBackend(backend, matrix.matrix(), matrix.source(), true, notice);
    }

    /** {@code NumberOfGPUs} as a count, 0 meaning all; the runtime validates it too, with the same message. */
    private static int requestedGpus(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("invalid value '" + value + "' for option NumberOfGPUs; expected an "
                + "integer of at least 0 (0 = all GPUs)");
    }

    /** The distinct device names, such as {@code NVIDIA H100 80GB HBM3}. */
    private static String deviceNames(CudaBackend backend) {
        Set<String> names = new LinkedHashSet<>();
        for (int d = 0; d < backend.deviceCount(); d++) {
            names.add(backend.deviceProperties(d).name());
        }
        return String.join(", ", names);
    }
}
