package org.polygpu.emulator;

import org.polygpu.backend.FunctionHandle;

/** A Java kernel of a module loaded on one virtual device. */
record EmulatedFunction(Object owner, int device, String name, JavaKernel body, KernelCost cost)
        implements FunctionHandle {
}
