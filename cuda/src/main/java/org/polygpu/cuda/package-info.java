/**
 * The CUDA backend: the CUDA driver ({@code libcuda.so.1}, versioned {@code _v2} symbols) through the Foreign Function
 * and Memory API, written by hand, and the backend SPI on top. The driver has a raw package-private interface
 * ({@link org.polygpu.cuda.CudaDriverApi}), an FFM implementation and a façade ({@link org.polygpu.cuda.CudaDriver})
 * that turns return codes into exceptions carrying the C error name. A missing driver is an expected state:
 * {@link org.polygpu.cuda.CudaDetection} says why. {@link org.polygpu.cuda.CudaBackend} implements the backend SPI,
 * compiling CUDA source with NVRTC ({@code org.polygpu.nvrtc}); {@link org.polygpu.cuda.CudaBackendProvider} offers
 * it as {@code Backend=cuda}.
 */
package org.polygpu.cuda;
