package org.polygpu.sched.spi;

import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Finds device-selection policies by their option value through {@link ServiceLoader}. */
public final class DeviceSelectionPolicies {
    private DeviceSelectionPolicies() {
    }

    /** The names of every policy on the class path, sorted. */
    public static List<String> names() {
        return List.copyOf(providers().keySet());
    }

    /**
     * Creates the policy registered under {@code name}.
     *
     * @throws IllegalArgumentException naming the valid values when no policy has that name
     */
    public static DeviceSelectionPolicy create(String name, PolicySettings settings) {
        DeviceSelectionPolicyProvider provider = providers().get(name);
        if (provider == null) {
            throw new IllegalArgumentException("unknown DeviceSelectionPolicy '" + name + "'; valid values: "
                    + String.join(", ", names()));
        }
        return provider.create(settings);
    }

    private static TreeMap<String, DeviceSelectionPolicyProvider> providers() {
        TreeMap<String, DeviceSelectionPolicyProvider> byName = new TreeMap<>();
        for (DeviceSelectionPolicyProvider p : ServiceLoader.load(DeviceSelectionPolicyProvider.class)) {
            DeviceSelectionPolicyProvider previous = byName.putIfAbsent(p.name(), p);
            if (previous != null && previous.getClass() != p.getClass()) {
                throw new IllegalStateException("two device-selection policies are named '" + p.name() + "': "
                        + previous.getClass().getName() + " and " + p.getClass().getName());
            }
        }
        return byName;
    }
}
