/**
 * The emulated backend: N virtual GPUs with separate memories, streams, events and a deterministic virtual clock in
 * nanoseconds. {@link org.polygpu.emulator.EmulatedBackend} is the entry point; kernels are Java functions with a
 * declared cost ({@link org.polygpu.emulator.JavaKernelModule}) until the PTX interpreter exists. Copies follow the
 * bandwidth matrix with concurrent transfers sharing a link; kernels follow a roofline of the
 * {@link org.polygpu.emulator.DeviceModel}. Data effects happen when an operation completes in virtual time, so a
 * missing copy or a missing event wait shows up as wrong data, as on a real GPU.
 */
package org.polygpu.emulator;
