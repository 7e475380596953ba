package org.polygpu.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Finds the {@link ClusterProvider} the {@code Cluster} option names: {@link #NONE} (default) keeps a context on its
 * own process's devices; a bad name lists the valid ones.
 */
public final class Clusters {
    /** The {@code Cluster} value for a context on one process. */
    public static final String NONE = "none";

    private Clusters() {
    }

    /** The valid values of {@code Cluster}: {@link #NONE}, then every provider on the class path. */
    public static List<String> names() {
        List<String> names = new ArrayList<>(List.of(NONE));
        providers().forEach(p -> names.add(p.name()));
        return names;
    }

    /** @throws IllegalArgumentException naming the valid values when {@code name} is not one */
    public static String check(String name) {
        if (!names().contains(name)) {
            throw new IllegalArgumentException("invalid value '" + name + "' for option Cluster; valid values: "
                    + String.join(", ", names()));
        }
        return name;
    }

    /** {@link ClusterProvider#join} of the chosen provider; nothing without a cluster. */
    public static void join(ClusterOptions cluster, String backend, BackendOptions options) {
        if (cluster.enabled()) {
            provider(cluster.name()).join(backend, options, cluster);
        }
    }

    /** {@code local} spread over the chosen cluster, or {@code local} itself without one. */
    public static OpenedBackend open(ClusterOptions cluster, OpenedBackend local) {
        return cluster.enabled() ? provider(cluster.name()).open(local, cluster) : local;
    }

    private static ClusterProvider provider(String name) {
        return providers().stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(check(name)));
    }

    private static List<ClusterProvider> providers() {
        List<ClusterProvider> list = new ArrayList<>();
        ServiceLoader.load(ClusterProvider.class).forEach(list::add);
        return list;
    }
}
