/**
 * The PTX interpreter of the emulator: a parser for the PTX that NVRTC emits ({@link
 * org.polygpu.emulator.ptx.PtxModule}), a decoder into compact int code with every operand a register, and a SIMT
 * executor ({@link org.polygpu.emulator.ptx.PtxExecutor}) with warps of 32 lanes, lowest-pc reconvergence, CTA
 * barriers and their reductions, shuffles, votes, matches, warp reductions, atomics, asynchronous copies, mbarriers
 * and calls, device {@code printf} and {@code assert}, CTAs spread over a thread pool. Every memory access is
 * bounds-checked against the device's allocations (memcheck), a launch has an instruction budget, and each launch
 * reports {@link org.polygpu.emulator.ptx.KernelCounters} for the timing model.
 */
package org.polygpu.emulator.ptx;
