package org.polygpu.backend;

import java.time.Duration;

import org.polygpu.config.ClusterCudaAware;

/**
 * How a context spreads over a parallel job: {@code Cluster} ({@link Clusters#NONE} or a {@link ClusterProvider}'s
 * name), {@code ClusterTimeout}, the longest the host waits for a sign of life from another process before it
 * reports that process as failed, and {@code ClusterCudaAware}, whether copies between processes use device memory
 * directly.
 */
public record ClusterOptions(String name, Duration timeout, ClusterCudaAware cudaAware) {
    public ClusterOptions {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("the Cluster option needs a value (" + Clusters.NONE + " for none)");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("ClusterTimeout must be positive, got " + timeout);
        }
        if (cudaAware == null) {
            throw new IllegalArgumentException("ClusterCudaAware needs a value (auto, on or off)");
        }
    }

    /** {@code ClusterCudaAware=auto}. */
    public ClusterOptions(String name, Duration timeout) {
        this(name, timeout, ClusterCudaAware.AUTO);
    }

    /** No cluster: the context's devices are its own process's. */
    public static ClusterOptions none() {
        return new ClusterOptions(Clusters.NONE, Duration.ofSeconds(5));
    }

    public boolean enabled() {
        return !name.equals(Clusters.NONE);
    }
}
