package org.polygpu.lang;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.ptx.ParameterStores;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;

/**
 * The warnings {@code buildkernel} and {@code bindkernel} print when a kernel's PTX stores through a pointer that its
 * signature declares read-only ({@code in}, {@code const}): the scheduler trusts the signature, so such a write is
 * refused on the emulator and lost on a GPU (the replica written is never copied anywhere). The runtime analyses the
 * PTX ({@link ParameterStores}) when the kernel is created, only when the signature has a read-only pointer; a CUBIN
 * without source has no PTX and is not checked.
 */
final class ReadOnlyStoreWarnings {
    private ReadOnlyStoreWarnings() {
    }

    /** One line per read-only parameter stored through, naming the kernel, the parameter and the first store. */
    static List<String> of(Kernel kernel) {
        List<Parameter> parameters = kernel.parameters();
        List<String> warnings = new ArrayList<>();
        for (ParameterStores.Store store : kernel.readOnlyStores()) {
            warnings.add("polygpu: warning: kernel '" + kernel.name() + "' stores through parameter '"
                    + parameters.get(store.parameter()).name() + "', which its signature declares read-only "
                    + "(in/const): " + store.instruction().replaceAll("\\s+", " ") + " at PTX line " + store.line()
                    + "; the write would be lost (refused on the emulator): " + ReadOnlyParameters.REMEDY);
        }
        return warnings;
    }
}
