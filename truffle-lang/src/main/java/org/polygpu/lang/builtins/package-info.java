/**
 * The functions of the root namespace {@code CU}: {@code DeviceArray}, {@code buildkernel}, {@code bindkernel},
 * {@code getdevices}, {@code getdevice}, {@code getoptions}, {@code cudaDeviceSynchronize},
 * {@code cudaGetDeviceCount}, {@code bind} and {@code bindall} (host functions of shared libraries), the {@code BLAS}
 * namespace, the raw memory functions {@code cudaMalloc}, {@code cudaFree}, {@code cudaMemcpy}, CUDA's device, stream
 * and event functions as GrCUDA exposes them ({@code DeviceApiBuiltins}, {@code StreamApiBuiltins}), and GrCUDA's
 * functions polygpu does not provide, which fail saying so ({@code UnsupportedFunctions}). Each declares its name and
 * arity in a {@code BuiltinSignature}, which its guest object checks before the call, then converts its arguments and
 * calls the runtime.
 */
package org.polygpu.lang.builtins;
