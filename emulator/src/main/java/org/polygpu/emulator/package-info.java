/**
 * The emulated backend: N virtual GPUs with separate memories, streams, events and a deterministic virtual clock in
 * nanoseconds. {@link org.polygpu.emulator.EmulatedBackend} is the entry point; kernels are PTX run by the SIMT
 * interpreter of {@link org.polygpu.emulator.ptx} (CUDA source is compiled to PTX with NVRTC first), or Java
 * functions with a declared cost ({@link org.polygpu.emulator.JavaKernelModule}). Copies follow the bandwidth matrix with concurrent transfers
 * sharing a link; PTX kernels are timed from the interpreter's counters by the physical parameters of the
 * {@link org.polygpu.emulator.DeviceModel} ({@link org.polygpu.emulator.timing}), Java kernels by a roofline of it. Copies and Java kernels take effect when they complete in virtual time, PTX kernels when they
 * start (their duration depends on their execution), so a missing copy or a missing event wait shows up as wrong
 * data, as on a real GPU.
 */
package org.polygpu.emulator;
