package org.polygpu.backend;

/** A module loaded on one device. */
public interface ModuleHandle {
    int device();
}
