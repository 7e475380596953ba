/**
 * Arrays managed by the runtime: element types, shapes, per-location replicas allocated lazily, and the MSI-like
 * coherence state that says which replicas are up to date.
 *
 * <p>Granularity of the coherence states ({@link org.polygpu.array.Coherence}): per array for the devices, per
 * chunk (4 KiB, the scheduler's choice) for the host. A device's replica is valid or not as a whole, since kernels
 * and copies use arrays whole; the host's may be valid for some chunks only, read alone, and may hold chunks it wrote
 * alone (dirty, Modified on the host) while one backing device keeps the others. Whatever uses the array whole merges
 * first, moving only the chunks that differ.
 */
package org.polygpu.array;
