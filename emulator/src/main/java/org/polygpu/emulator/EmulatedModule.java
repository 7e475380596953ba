package org.polygpu.emulator;

import org.polygpu.backend.ModuleHandle;

/** A {@link JavaKernelModule} loaded on one virtual device. */
record EmulatedModule(Object owner, int device, JavaKernelModule image) implements ModuleHandle {
}
