package org.polygpu.cuda;

import org.polygpu.config.MemoryModel;
import java.util.LinkedHashSet;
import java.util.Set;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.nvrtc.KernelCache;
import org.polygpu.topology.BandwidthMatrixFiles;
import org.polygpu.topology.InterconnectProfiler;

/**
 * Provides the CUDA backend as {@code Backend=cuda}, first in {@code auto}'s order when a GPU is usable
 * ({@link CudaDetection}). Options: {@code MemoryModel} ({@code explicit}, the default, or {@code managed}) and
 * {@code BandwidthMatrix} (a CSV path or preset; see {@link BandwidthMatrixFiles} for what happens without it). It
 * also reads two options that others own: {@code NumberOfGPUs}, so that only the devices used get a context (more
 * than are present is an error saying how many there are), and {@code NvrtcLibrary}, for compiling CUDA source.
 */
public final class CudaBackendProvider implements BackendProvider {
    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public Availability probe(BackendOptions options) {
        CudaDetection.Result r = CudaDetection.detect();
        return new Availability(r.usable(), r.reason());
    }

    @Override
    public int priority() {
        return 0;
    }

    @Override
    public OpenedBackend open(BackendOptions options) {
        MemoryModel model = options.memoryModel();
        CudaDetection.Result detected = CudaDetection.detect();
        if (!detected.usable()) {
            throw new BackendException("Backend=cuda cannot run here: " + detected.reason());
        }
        CudaDriver driver = CudaDriver.system();
        int present = driver.deviceCount();
        int requested = options.numberOfGpus();
        if (requested > present) {
            throw new IllegalArgumentException("NumberOfGPUs=" + requested + " but " + present + " GPU"
                    + (present == 1 ? " is" : "s are") + " present");
        }
        int used = requested == 0 ? present : requested;
        CudaBackend backend = CudaBackend.open(driver, used, model,
                options.nvrtcLibrary().map(Object::toString).orElse(null), KernelCache.of(options.kernelCache()));
        BandwidthMatrixFiles.Choice matrix;
        try {
            matrix = BandwidthMatrixFiles.choose(backend, options.bandwidthMatrix(), System.getenv(),
                    BandwidthMatrixFiles.defaultFile(), InterconnectProfiler.Settings.defaults(backend));
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
        String notice = "using " + used + " CUDA GPU" + (used == 1 ? "" : "s") + " (" + deviceNames(backend)
                + "; driver " + detected.driverVersion() + ", MemoryModel=" + model.optionValue()
                + "); bandwidth matrix: " + matrix.source();
        return new OpenedBackend(backend, matrix.matrix(), matrix.source(), true, notice);
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
