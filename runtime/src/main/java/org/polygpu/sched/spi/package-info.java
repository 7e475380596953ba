/**
 * The device-selection SPI: the policy interface, its provider found through {@link java.util.ServiceLoader}, the
 * immutable inputs a policy decides from, and the sets of locations ({@link org.polygpu.sched.spi.LocationSet}) they
 * and the coherence state are written in. Policies depend on this package and {@code org.polygpu.topology} only.
 */
package org.polygpu.sched.spi;
