package org.polygpu.emulator;

import java.util.Map;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.emulator.ptx.PtxModule;

/** A module loaded on one virtual device: Java kernels, or a parsed PTX module with its device variables. */
sealed interface EmulatedModule extends ModuleHandle {
    /** The backend that loaded it. */
    Object owner();

    /** A {@link JavaKernelModule} loaded on a device. */
    record Java(Object owner, int device, JavaKernelModule image) implements EmulatedModule {
    }

    /**
     * A PTX module loaded on a device.
     *
     * @param text         the PTX it was parsed from
     * @param loweredNames the mangled kernel name of each name expression it was compiled with (none for PTX given
     *                     as such)
     * @param variables    its {@code .global} and {@code .const} variables, allocated on that device, by name
     */
    record Ptx(Object owner, int device, PtxModule image, String text, Map<String, String> loweredNames,
               Map<String, EmulatedBuffer> variables) implements EmulatedModule {
    }
}
