package org.polygpu.config;

/**
 * The {@code MemoryModel} option of the CUDA backend: how a replica's device memory is allocated.
 *
 * <ul>
 *   <li>{@code explicit} (default): {@code cuMemAlloc}; replicas are moved by explicit copies, as the scheduler's
 *       coherence protocol decides.</li>
 *   <li>{@code managed}: {@code cuMemAllocManaged}, advised to prefer the replica's device and prefetched there, so
 *       that a kernel touching memory the scheduler did not expect still finds it (GrCUDA's unified-memory
 *       behaviour); copies and coherence are the same as with {@code explicit}.</li>
 * </ul>
 */
public enum MemoryModel implements OptionValue {
    EXPLICIT("explicit"),
    MANAGED("managed");

    private final String value;

    MemoryModel(String value) {
        this.value = value;
    }

    @Override
    public String optionValue() {
        return value;
    }
}
