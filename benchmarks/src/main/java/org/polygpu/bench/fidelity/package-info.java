/**
 * The emulator's fidelity against a real GPU: the measurements of a calibration directory (kernels, copies,
 * concurrent kernels), the study kernels run on the emulator with the same arguments, the comparison table
 * ({@code scripts/fidelity.sh}) and the fitting of a device model to the measurements.
 */
package org.polygpu.bench.fidelity;
