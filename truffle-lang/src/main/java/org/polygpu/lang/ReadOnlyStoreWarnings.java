package org.polygpu.lang;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.polygpu.array.Access;
import org.polygpu.ptx.ParameterStores;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;

/**
 * What {@code buildkernel} and {@code bindkernel} do when a kernel's PTX stores through a pointer that its signature
 * declares read-only ({@code in}, {@code const}): the scheduler trusts the signature, so such a write would be
 * refused on the emulator and lost on a GPU (the replica written is never copied anywhere). GrCUDA's unified memory
 * keeps such writes, and programs written for it (its own benchmarks among them) declare written arrays
 * {@code const}; so the parameter is treated as {@code inout} instead, with one warning line. The PTX is analysed
 * ({@link ParameterStores}) only when the signature has a read-only pointer; a CUBIN without source has no PTX and
 * is not checked.
 *
 * @param stored   the indices of the read-only pointer parameters the kernel stores through
 * @param warnings one line per such parameter, naming the kernel, the parameter and its first store
 */
record ReadOnlyStoreWarnings(BitSet stored, List<String> warnings) {

    /** The read-only pointers {@code kernel} stores through, as its PTX shows them. */
    static ReadOnlyStoreWarnings of(Kernel kernel, Supplier<Optional<String>> ptx) {
        List<Parameter> parameters = kernel.parameters();
        BitSet stored = new BitSet();
        List<String> warnings = new ArrayList<>();
        if (parameters.stream().noneMatch(ReadOnlyStoreWarnings::readOnlyPointer)) {
            return new ReadOnlyStoreWarnings(stored, warnings);
        }
        Optional<String> text = ptx.get();
        Optional<String> entry = text.flatMap(t -> ParameterStores.entry(t, kernel.name()));
        if (entry.isEmpty()) {
            return new ReadOnlyStoreWarnings(stored, warnings);
        }
        for (ParameterStores.Store store : ParameterStores.of(text.get(), entry.get())) {
            int i = store.parameter();
            if (i < parameters.size() && readOnlyPointer(parameters.get(i)) && !stored.get(i)) {
                stored.set(i);
                warnings.add("polygpu: warning: kernel '" + kernel.name() + "' stores through parameter '"
                        + parameters.get(i).name() + "', which its signature declares read-only (in/const): "
                        + store.instruction().replaceAll("\\s+", " ") + " at PTX line " + store.line()
                        + "; it is treated as inout, so that the write is kept: declare the parameter out or inout");
            }
        }
        return new ReadOnlyStoreWarnings(stored, warnings);
    }

    /** {@code parameters} with those stored through made {@code inout}. */
    List<Parameter> upgraded(List<Parameter> parameters) {
        List<Parameter> result = new ArrayList<>(parameters);
        stored.stream().forEach(i -> {
            Parameter p = parameters.get(i);
            result.set(i, Parameter.pointer(p.name(), p.type(), Access.READ_WRITE));
        });
        return List.copyOf(result);
    }

    private static boolean readOnlyPointer(Parameter p) {
        return p.pointer() && p.access() == Access.READ;
    }
}
