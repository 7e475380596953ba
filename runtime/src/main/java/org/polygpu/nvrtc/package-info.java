/**
 * NVRTC, the run-time CUDA C++ compiler, through the Foreign Function and Memory API, written by hand: a raw
 * package-private interface ({@code NvrtcApi}), its FFM implementation, and the façade {@link
 * org.polygpu.nvrtc.Nvrtc} whose one check turns return codes into {@link org.polygpu.nvrtc.NvrtcException}s carrying
 * the C error name and the compiler log. Both backends compile CUDA source with it. A missing library is an expected
 * state: {@link org.polygpu.nvrtc.NvrtcLibrary} says where it looked and how to install NVRTC.
 */
package org.polygpu.nvrtc;
