/**
 * The fit of a device model to the measurements of {@code polygpu calibrate}: {@link
 * org.polygpu.emulator.calibration.DeviceModelFitter} turns {@link org.polygpu.calibration.Measurements} into a
 * {@link org.polygpu.emulator.DeviceModel} (the equations are on {@code KernelFits} and {@code CopyFits}), and {@link
 * org.polygpu.emulator.calibration.EmulatorCalibrationFit} offers it as the runtime's {@link
 * org.polygpu.calibration.CalibrationFit} service. The fit lives here because the emulator owns the model it
 * produces; the suite that measures lives in the runtime beside the backend SPI it runs through, and the launcher
 * reaches the fit through the service, so that it keeps only a run-time dependency on the emulator.
 */
package org.polygpu.emulator.calibration;
