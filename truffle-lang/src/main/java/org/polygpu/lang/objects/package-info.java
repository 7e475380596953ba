/**
 * Guest objects: device arrays (1-D, multi-dimensional and their views), kernels, devices, options, namespaces and
 * builtin functions. Each is a final class whose interop messages make one call to
 * {@link org.polygpu.lang.PolygpuRuntime}; none holds scheduling logic.
 */
package org.polygpu.lang.objects;
