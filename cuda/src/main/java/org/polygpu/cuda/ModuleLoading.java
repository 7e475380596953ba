package org.polygpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The CUDA driver's module loading mode, {@code CUDA_MODULE_LOADING}, which the driver reads once, at {@code cuInit}.
 *
 * <p>Since CUDA 12.2 the driver loads lazily by default: a kernel's code reaches the GPU only when it is first used,
 * the likely cause of the 4-8 ms that each kernel's first launch took in polygpu's first real-GPU runs. polygpu
 * loads every module and resolves its functions when a kernel is built, and asks for {@code EAGER} loading before
 * {@code cuInit}, so that this cost is paid there and not by the first launch. A value the user set is kept. The
 * variable is set in the process's own environment with the C library's {@code setenv} (Java's
 * {@code System.getenv} is a snapshot taken at start-up), before any driver thread exists. Stateless.
 */
final class ModuleLoading {
    static final String VARIABLE = "CUDA_MODULE_LOADING";
    static final String EAGER = "EAGER";

    private ModuleLoading() {
    }

    /** Sets {@code CUDA_MODULE_LOADING=EAGER} unless the process has a value; returns the value now in force. */
    static Optional<String> preferEager() {
        Linker linker = Linker.nativeLinker();
        Optional<MemorySegment> setenv = linker.defaultLookup().find("setenv");
        if (setenv.isPresent()) {
            MethodHandle h = linker.downcallHandle(setenv.get(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
            try (Arena arena = Arena.ofConfined()) {
                int ignored = (int) h.invokeExact(arena.allocateFrom(VARIABLE), arena.allocateFrom(EAGER), 0);
            } catch (Throwable e) {
                throw new IllegalStateException("setenv(" + VARIABLE + ") failed", e);
            }
        }
        return current();
    }

    /** The process's value of {@code CUDA_MODULE_LOADING}, read with the C library's {@code getenv}. */
    static Optional<String> current() {
        Linker linker = Linker.nativeLinker();
        Optional<MemorySegment> getenv = linker.defaultLookup().find("getenv");
        if (getenv.isEmpty()) {
            return Optional.ofNullable(System.getenv(VARIABLE));
        }
        MethodHandle h = linker.downcallHandle(getenv.get(), FunctionDescriptor.of(ADDRESS, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = (MemorySegment) h.invokeExact(arena.allocateFrom(VARIABLE));
            return value.equals(MemorySegment.NULL) ? Optional.empty()
                    : Optional.of(value.reinterpret(Integer.MAX_VALUE).getString(0));
        } catch (Throwable e) {
            throw new IllegalStateException("getenv(" + VARIABLE + ") failed", e);
        }
    }
}
