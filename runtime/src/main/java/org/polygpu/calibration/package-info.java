/**
 * Calibration of a device model from measurements: the microbenchmark suite ({@link
 * org.polygpu.calibration.CalibrationSuite}), which runs through the backend SPI on any backend, its results ({@link
 * org.polygpu.calibration.Measurements}, a CSV that a fit can be redone from), and the service a fit is reached
 * through ({@link org.polygpu.calibration.CalibrationFit}). Measuring lives here, beside the backend SPI it uses; the
 * fit lives in the emulator module, which owns the device model it produces, and the launcher's {@code calibrate}
 * command finds it at run time, keeping the launcher free of a compile-time dependency on the emulator.
 */
package org.polygpu.calibration;
