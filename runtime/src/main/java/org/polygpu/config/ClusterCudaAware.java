package org.polygpu.config;

/**
 * The {@code ClusterCudaAware} option: whether copies between the ranks of a {@code Cluster=mpi} job send from and
 * receive into device memory directly (the direct path) instead of staging through pinned host memory.
 *
 * <ul>
 *   <li>{@code auto} (default): directly on the ranks whose MPI library says it reads device memory (Open MPI's
 *       {@code MPIX_Query_cuda_support()}), and whose backend gives device pointers.</li>
 *   <li>{@code on}: directly on every rank, which each rank checks at start: one whose devices are real GPUs and whose
 *       MPI library is not CUDA-aware refuses to start. Emulated devices' memory is host memory, which any MPI library
 *       reads, so {@code on} takes the direct path for them with any library.</li>
 *   <li>{@code off}: always through pinned host memory.</li>
 * </ul>
 */
public enum ClusterCudaAware implements OptionValue {
    AUTO("auto"),
    ON("on"),
    OFF("off");

    private final String value;

    ClusterCudaAware(String value) {
        this.value = value;
    }

    @Override
    public String optionValue() {
        return value;
    }
}
