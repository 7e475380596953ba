/**
 * Arrays managed by the runtime: element types, shapes, per-location replicas allocated lazily, and the MSI-like
 * coherence state that says which replicas are up to date.
 */
package org.polygpu.array;
