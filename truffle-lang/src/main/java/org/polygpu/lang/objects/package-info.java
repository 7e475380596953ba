/**
 * Guest objects: device arrays (1-D, multi-dimensional and their views), kernels, devices, options, namespaces and
 * builtin functions. Each is a final class whose interop messages make one call to
 * {@link org.polygpu.lang.PolygpuRuntime}; none holds scheduling logic. They extend {@code GuestObject}, which
 * exports their language; the array objects extend the sealed {@code ArrayObject}, which exports their members
 * ({@code ArrayMember}) and display, so each kind exports only its elements, its size and, in 1-D, its buffer. Bulk
 * copies ({@code HostTransfers}, {@code RawMemory}) reach host memory through {@code HostMemory} and other languages'
 * buffers through the interop buffer messages, writing them with {@code BufferWriter}, the one root node here.
 */
package org.polygpu.lang.objects;
