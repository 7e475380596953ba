package org.polygpu.backend;

/**
 * A device memory allocation made by {@link Backend#allocate}, or managed memory made by
 * {@link Backend#allocateManaged}, which belongs to no single device.
 */
public interface DeviceBuffer {
    /** The {@link #device()} of managed memory: every device and the host address it, and its pages migrate. */
    int MANAGED = -1;

    /** The device whose memory this is, or {@link #MANAGED}. */
    int device();

    long bytes();
}
