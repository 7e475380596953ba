/**
 * The device-selection SPI: the policy interface, its provider found through {@link java.util.ServiceLoader}, and
 * the immutable inputs a policy decides from. Policies depend on this package and {@code org.polygpu.topology} only.
 */
package org.polygpu.sched.spi;
