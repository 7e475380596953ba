/**
 * The scheduler's options: the policy enums with their option values, and the immutable {@link
 * org.polygpu.config.RuntimeConfig} read once at start-up. A bad value fails with the list of valid values.
 */
package org.polygpu.config;
