package org.polygpu.sched.spi;

/**
 * Creates a {@link DeviceSelectionPolicy}; registered under {@code META-INF/services} and found by
 * {@link #name()}, the kebab-case value of the {@code DeviceSelectionPolicy} option.
 */
public interface DeviceSelectionPolicyProvider {
    /** The option value that selects this policy, e.g. {@code minmax-transfer-time}. */
    String name();

    /** A fresh policy instance for one runtime. */
    DeviceSelectionPolicy create(PolicySettings settings);
}
