package org.polygpu.backend;

/** A kernel function of a loaded module. */
public interface FunctionHandle {
    String name();

    int device();
}
