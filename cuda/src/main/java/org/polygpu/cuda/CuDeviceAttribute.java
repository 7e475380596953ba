package org.polygpu.cuda;

/** The {@code CUdevice_attribute} values polygpu queries, with their C names; {@link #code()} is the C value. */
public enum CuDeviceAttribute {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK(1),
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK(8),
    CU_DEVICE_ATTRIBUTE_WARP_SIZE(10),
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE(13),
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT(16),
    CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS(31),
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID(33),
    CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING(41),
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR(75),
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR(76),
    CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY(83),
    CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS(89);

    private final int code;

    CuDeviceAttribute(int code) {
        this.code = code;
    }

    /** The C value of this attribute. */
    public int code() {
        return code;
    }
}
