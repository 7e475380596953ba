package org.polygpu.backend;

/** A stream of one device; {@link #id()} numbers the device's streams from 0 in creation order. */
public interface StreamHandle {
    int device();

    int id();
}
