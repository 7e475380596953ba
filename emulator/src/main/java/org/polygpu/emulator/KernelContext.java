package org.polygpu.emulator;

import java.lang.foreign.MemorySegment;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.LaunchConfig;

/**
 * What a {@link JavaKernel} sees of its launch: the configuration, the device, and the arguments. Pointer
 * arguments are the memory of device buffers that the launch already checked to belong to {@link #device()}; each
 * segment is exactly the buffer's size, so an access past its end fails instead of touching other memory.
 *
 * <p>A pointer passed for a parameter the signature declares read-only ({@code in}, {@code const}) is read-only
 * memory, unless the same buffer is also passed for a parameter that may be written: a write through it fails
 * ({@link JavaExecution} turns that into a fault naming the parameter and the element).
 *
 * <p>Valid only while the kernel body runs.
 */
public final class KernelContext {
    private final String kernel;
    private final LaunchConfig config;
    private final int device;
    private final Object[] arguments;
    /** The memory each pointer argument gives the body, by argument index; null for the other arguments. */
    private final MemorySegment[] pointers;

    /** @param pointers the memory of each pointer argument, by argument index (null elsewhere) */
    KernelContext(String kernel, LaunchConfig config, int device, Object[] arguments, MemorySegment[] pointers) {
        this.kernel = kernel;
        this.config = config;
        this.device = device;
        this.arguments = arguments;
        this.pointers = pointers;
    }

    public LaunchConfig config() {
        return config;
    }

    /** The device the kernel runs on. */
    public int device() {
        return device;
    }

    public int argumentCount() {
        return arguments.length;
    }

    /** The memory of the device buffer passed as argument {@code index}. */
    public MemorySegment pointer(int index) {
        if (argument(index) instanceof EmulatedBuffer) {
            return pointers[index];
        }
        throw mismatch(index, "a device buffer");
    }

    /** Argument {@code index}, a {@code Byte}, {@code Short} or {@code Integer}, as an {@code int}. */
    public int intArg(int index) {
        Object a = argument(index);
        if (a instanceof Integer || a instanceof Short || a instanceof Byte) {
            return ((Number) a).intValue();
        }
        throw mismatch(index, "an int");
    }

    /** Argument {@code index}, any integral scalar, as a {@code long}. */
    public long longArg(int index) {
        Object a = argument(index);
        if (a instanceof Long || a instanceof Integer || a instanceof Short || a instanceof Byte) {
            return ((Number) a).longValue();
        }
        throw mismatch(index, "a long");
    }

    /** Argument {@code index}, a {@code Float}. */
    public float floatArg(int index) {
        if (argument(index) instanceof Float f) {
            return f;
        }
        throw mismatch(index, "a float");
    }

    /** Argument {@code index}, a {@code Float} or {@code Double}, as a {@code double}. */
    public double doubleArg(int index) {
        Object a = argument(index);
        if (a instanceof Double || a instanceof Float) {
            return ((Number) a).doubleValue();
        }
        throw mismatch(index, "a double");
    }

    private Object argument(int index) {
        if (index < 0 || index >= arguments.length) {
            throw new BackendException("kernel '" + kernel + "' asked for argument " + index + " but was launched with "
                    + arguments.length + " arguments");
        }
        return arguments[index];
    }

    private BackendException mismatch(int index, String expected) {
        return new BackendException("argument " + index + " of kernel '" + kernel + "' is "
                + LaunchChecks.describe(arguments[index]) + ", not " + expected);
    }
}
