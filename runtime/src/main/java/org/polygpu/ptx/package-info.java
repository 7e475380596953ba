/**
 * What the runtime reads in a kernel's PTX, whatever the backend: {@link org.polygpu.ptx.ParameterStores} finds the
 * pointer parameters a kernel stores through, so that a signature declaring one of them read-only is flagged when
 * the kernel is built.
 */
package org.polygpu.ptx;
