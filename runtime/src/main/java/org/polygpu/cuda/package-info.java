/**
 * NVIDIA's native libraries through the Foreign Function and Memory API, written by hand, and the CUDA backend on
 * top. NVRTC (the run-time CUDA C++ compiler) and the CUDA driver ({@code libcuda.so.1}, versioned {@code _v2}
 * symbols) each have a raw package-private interface, an FFM implementation and a façade ({@link
 * org.polygpu.cuda.Nvrtc}, {@link org.polygpu.cuda.CudaDriver}) that turns return codes into exceptions carrying the C
 * error name. A missing library is an expected state: {@link org.polygpu.cuda.CudaDetection} and the NVRTC locator
 * say why. {@link org.polygpu.cuda.CudaBackend} implements the backend SPI; {@link
 * org.polygpu.cuda.CudaBackendProvider} offers it as {@code Backend=cuda}.
 */
package org.polygpu.cuda;
