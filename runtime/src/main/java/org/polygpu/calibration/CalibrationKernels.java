package org.polygpu.calibration;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.polygpu.backend.Backend;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;

/**
 * The suite's kernels ({@code calibration.cu} among this package's resources), compiled by the backend for the
 * measured device (NVRTC to its architecture on CUDA) and loaded on it.
 */
final class CalibrationKernels {
    private static final String RESOURCE = "calibration.cu";

    private final Backend backend;
    private final ModuleHandle module;

    CalibrationKernels(Backend backend, int device) {
        this.backend = backend;
        this.module = backend.loadModule(device, new ModuleImage.CudaSource(source(), RESOURCE, List.of(),
                List.of()));
    }

    /** The CUDA source of the suite's kernels. */
    static String source() {
        try (InputStream in = CalibrationKernels.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the runtime's resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** The kernel called {@code name} ({@code extern "C"}). */
    FunctionHandle function(String name) {
        return backend.function(module, name);
    }
}
