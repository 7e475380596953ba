package org.polygpu.emulator.calibration;

import java.nio.file.Path;
import java.util.List;
import org.polygpu.calibration.CalibrationFit;
import org.polygpu.calibration.Measurements;
import org.polygpu.emulator.DeviceModelFile;

/**
 * The {@link CalibrationFit} service of the emulator: fits with {@link DeviceModelFitter} and writes the model with
 * {@link DeviceModelFile#write}. Registered under {@code META-INF/services}.
 */
public final class EmulatorCalibrationFit implements CalibrationFit {
    /** The service instance {@link java.util.ServiceLoader} makes. */
    public EmulatorCalibrationFit() {
    }

    @Override
    public List<String> fitAndWrite(Measurements measurements, String source, Path file) {
        DeviceModelFitter.Fit fit = DeviceModelFitter.fit(measurements, source);
        DeviceModelFile.write(fit.model(), file);
        return fit.summary();
    }
}
