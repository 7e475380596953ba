package org.polygpu.backend;

/** An event of one device, recordable on its streams and waitable from any stream. */
public interface EventHandle {
    int device();
}
