/**
 * Bindings to NVIDIA's native libraries through the Foreign Function and Memory API, written by hand: NVRTC (the
 * run-time CUDA C++ compiler) and, later, the CUDA driver. Each library has a raw interface, an FFM implementation
 * and a façade that turns return codes into exceptions carrying the C error name. A missing library is an expected
 * state: locators report where they looked and how to install it.
 */
package org.polygpu.cuda;
