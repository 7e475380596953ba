package org.polygpu.lang;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.polygpu.array.Access;
import org.polygpu.ptx.ParameterStores;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;

/**
 * The warnings {@code buildkernel} and {@code bindkernel} print when a kernel's PTX stores through a pointer that its
 * signature declares read-only ({@code in}, {@code const}): the scheduler trusts the signature, so such a write is
 * refused on the emulator and lost on a GPU (the replica written is never copied anywhere). The PTX is analysed
 * ({@link ParameterStores}) only when the signature has a read-only pointer; a CUBIN without source has no PTX and
 * is not checked.
 */
final class ReadOnlyStoreWarnings {
    private ReadOnlyStoreWarnings() {
    }

    /** One line per read-only parameter stored through, naming the kernel, the parameter and the first store. */
    static List<String> of(Kernel kernel, Supplier<Optional<String>> ptx) {
        List<Parameter> parameters = kernel.parameters();
        if (parameters.stream().noneMatch(ReadOnlyStoreWarnings::readOnlyPointer)) {
            return List.of();
        }
        Optional<String> text = ptx.get();
        Optional<String> entry = text.flatMap(t -> ParameterStores.entry(t, kernel.name()));
        if (entry.isEmpty()) {
            return List.of();
        }
        List<String> warnings = new ArrayList<>();
        boolean[] warned = new boolean[parameters.size()];
        for (ParameterStores.Store store : ParameterStores.of(text.get(), entry.get())) {
            int i = store.parameter();
            if (i < parameters.size() && readOnlyPointer(parameters.get(i)) && !warned[i]) {
                warned[i] = true;
                warnings.add("polygpu: warning: kernel '" + kernel.name() + "' stores through parameter '"
                        + parameters.get(i).name() + "', which its signature declares read-only (in/const): "
                        + store.instruction().replaceAll("\\s+", " ") + " at PTX line " + store.line()
                        + "; the write would be lost (refused on the emulator): declare the parameter out or inout");
            }
        }
        return warnings;
    }

    private static boolean readOnlyPointer(Parameter p) {
        return p.pointer() && p.access() == Access.READ;
    }
}
