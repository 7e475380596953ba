/**
 * The scheduler's options: the policy enums with their option values, and the immutable {@link
 * org.polygpu.config.RuntimeConfig} read once at start-up. A bad value fails with the list of valid values; a bad
 * file an option names fails with the option, the path and the reason ({@link org.polygpu.config.UserFiles}).
 */
package org.polygpu.config;
