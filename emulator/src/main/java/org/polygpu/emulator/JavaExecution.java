package org.polygpu.emulator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ReadOnlyParameters;

/**
 * A Java kernel: its demand, from its declared cost (it can use the whole device), and its body run over the whole
 * grid when the launch completes.
 *
 * <p>Read-only parameters. The buffer passed for a pointer the signature declares read-only ({@code in},
 * {@code const}) reaches the body as read-only memory, unless the same buffer is also passed for a parameter that
 * may be written, as a PTX kernel's stores through such a pointer are refused ({@link PtxExecution}): a write through
 * it ends the kernel with a memcheck fault naming the kernel, the parameter and the element, where the write would
 * otherwise land in a replica the runtime never copies back and be lost. The refused write is an exception inside the
 * body that does not say where it was; to name the element, the body is run once more, on private copies of the
 * buffers as the first run left them, and the first byte it changes in a read-only parameter's copy is reported
 * (device memory is not touched by that second run).
 */
record JavaExecution(EmulatedFunction.Java function, LaunchConfig config, int device, Object[] arguments,
                     KernelDemand demand, ReadOnlyParameters readOnly) implements KernelExecution {
    @Override
    public KernelDemand start() {
        return demand;
    }

    @Override
    public void finish() {
        try {
            function.body().run(new KernelContext(function.name(), config, device, arguments, pointers(true)));
        } catch (IndexOutOfBoundsException e) {
            throw new BackendException("kernel '" + function.name() + "' on device " + device
                    + " accessed memory out of bounds: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            String refused = readOnly.isEmpty() ? null : refusedWrite();
            if (refused != null) {
                throw new BackendException(refused, e);
            }
            throw new BackendException("kernel '" + function.name() + "' on device " + device + " failed: "
                    + e.getMessage(), e);
        }
    }

    /** Each pointer argument's memory, read-only for a read-only parameter when {@code checked}. */
    private MemorySegment[] pointers(boolean checked) {
        MemorySegment[] pointers = new MemorySegment[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            if (arguments[i] instanceof EmulatedBuffer b) {
                pointers[i] = checked && refusesWrites(i) ? b.segment().asReadOnly() : b.segment();
            }
        }
        return pointers;
    }

    /** Whether argument {@code index} is read-only: its parameter is, and no writable parameter has its buffer. */
    private boolean refusesWrites(int index) {
        if (!readOnly.isReadOnly(index)) {
            return false;
        }
        for (int j = 0; j < arguments.length; j++) {
            if (arguments[j] == arguments[index] && !readOnly.isReadOnly(j)) {
                return false;
            }
        }
        return true;
    }

    /**
     * After the body failed: runs it again on private copies of the buffers and, when it changed a read-only
     * parameter's copy, describes the first such write; null when it did not (the failure was something else).
     */
    private String refusedWrite() {
        try (Arena arena = Arena.ofConfined()) {
            Map<EmulatedBuffer, MemorySegment> copies = new IdentityHashMap<>();
            MemorySegment[] pointers = new MemorySegment[arguments.length];
            for (int i = 0; i < arguments.length; i++) {
                if (arguments[i] instanceof EmulatedBuffer b) {
                    pointers[i] = copies.computeIfAbsent(b, k -> arena.allocate(k.segment().byteSize())
                            .copyFrom(k.segment()));
                }
            }
            try {
                function.body().run(new KernelContext(function.name(), config, device, arguments, pointers));
            } catch (RuntimeException e) {
                // The writes before the failure are in the copies; they are what is looked for.
            }
            for (int i = 0; i < arguments.length; i++) {
                if (arguments[i] instanceof EmulatedBuffer b && refusesWrites(i)) {
                    long at = pointers[i].mismatch(b.segment());
                    if (at >= 0) {
                        int size = readOnly.elementBytes(i);
                        String element = size > 0 ? "element " + at / size + " (byte " + at / size * size + ")"
                                : "byte " + at;
                        return "memcheck: kernel '" + function.name() + "' (a Java kernel) wrote " + element
                                + " of the buffer passed for parameter '" + readOnly.name(i) + "', which the "
                                + "signature declares read-only (in/const) (device " + device + "): "
                                + ReadOnlyParameters.REMEDY;
                    }
                }
            }
        } catch (RuntimeException | OutOfMemoryError e) {
            return null;
        }
        return null;
    }
}
