package org.polygpu.backend;

/** A device memory allocation made by {@link Backend#allocate}. */
public interface DeviceBuffer {
    int device();

    long bytes();
}
