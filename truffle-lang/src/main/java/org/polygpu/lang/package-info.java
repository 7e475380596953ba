/**
 * The guest language {@code polygpu}: its registration, context, options, the runtime gate
 * ({@link org.polygpu.lang.PolygpuRuntime}) and the one guest-facing exception.
 */
package org.polygpu.lang;
