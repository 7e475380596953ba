/**
 * The emulator's timing model as physical parameters: the specification records a device model is made of
 * ({@link org.polygpu.emulator.timing.SmSpec}, {@link org.polygpu.emulator.timing.MemorySpec}, ...), one class per
 * cost a kernel pays (memory, compute, atomics, occupancy) combined by
 * {@link org.polygpu.emulator.timing.KernelTiming}, the fitting of parameters to measurements, and the strict JSON
 * reading the device-model files use. The equations are in {@code docs/emulator-model.md}.
 */
package org.polygpu.emulator.timing;
