package org.polygpu.emulator;

import org.polygpu.backend.FunctionHandle;
import org.polygpu.emulator.ptx.PtxKernel;

/** A kernel of a module loaded on one virtual device. */
sealed interface EmulatedFunction extends FunctionHandle {
    /** The backend that loaded it. */
    Object owner();

    /** A Java kernel with its declared cost. */
    record Java(Object owner, int device, String name, JavaKernel body, KernelCost cost) implements EmulatedFunction {
    }

    /** A PTX kernel of a loaded module; its duration comes from the counters of its execution. */
    record Ptx(Object owner, int device, String name, EmulatedModule.Ptx module, PtxKernel kernel)
            implements EmulatedFunction {
    }
}
