package org.polygpu.calibration;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Turns measurements into a device-model file: the service through which {@code polygpu calibrate} reaches the fit,
 * which lives with the model it produces (the emulator's, found with {@link java.util.ServiceLoader}), so that the
 * command needs no compile-time dependency on the emulator.
 */
public interface CalibrationFit {
    /** The fit on the class or module path, if any (the emulator module provides one). */
    static Optional<CalibrationFit> installed() {
        return ServiceLoader.load(CalibrationFit.class).findFirst();
    }

    /**
     * Fits a model to {@code measurements} and writes it to {@code file}.
     *
     * @param source where the figures come from, for the model's {@code source}
     * @return lines summarising the fitted parameters, for the user
     * @throws IllegalArgumentException when the measurements cannot be fitted, saying which are missing or wrong
     */
    List<String> fitAndWrite(Measurements measurements, String source, Path file);
}
