package org.polygpu.config;

/**
 * The {@code MemoryModel} option: how arrays live on the devices.
 *
 * <ul>
 *   <li>{@code explicit} (default): one replica per location ({@code cuMemAlloc} on CUDA), kept coherent by the
 *       scheduler's copies; a kernel writing through a pointer its signature declares {@code in}/{@code const} writes
 *       a replica no one reads back, which the emulator refuses as a fault.</li>
 *   <li>{@code managed}: GrCUDA's unified memory. Each array is one managed allocation ({@code cuMemAllocManaged})
 *       that every device and the host address, whose pages migrate to where they are used: the scheduler copies
 *       nothing, prefetches each computation's arrays that it does not know valid on the computation's device there,
 *       on the computation's stream before it runs (a kernel faults in any other page it touches), and migrates the
 *       bytes a host access touches to the host. Dependencies are still those the signatures declare, so kernels on
 *       several devices writing disjoint parts of an array declared {@code const} all land, as on GrCUDA. The
 *       emulator models pages, prefetches and faults on its link model.</li>
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
