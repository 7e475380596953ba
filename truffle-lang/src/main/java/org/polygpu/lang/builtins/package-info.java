/**
 * The functions of the root namespace {@code CU}: {@code DeviceArray}, {@code buildkernel}, {@code bindkernel},
 * {@code getdevices}, {@code getdevice}, {@code getoptions}, {@code cudaDeviceSynchronize},
 * {@code cudaGetDeviceCount}, and the raw memory functions {@code cudaMalloc}, {@code cudaFree}, {@code cudaMemcpy}.
 * Each declares its name and arity in a {@code BuiltinSignature}, which its guest
 * object checks before the call, then converts its arguments and calls the runtime.
 */
package org.polygpu.lang.builtins;
