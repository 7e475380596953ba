package org.polygpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.polygpu.backend.BackendException;

/**
 * The native memory behind {@code cuLaunchKernel}'s {@code kernelParams}: an array of pointers, one per kernel
 * parameter, each to the argument's value — the device pointer for a buffer, the scalar itself otherwise.
 *
 * <p>Every argument gets an 8-byte, 8-aligned slot in one reused native block, and the pointer array, pointing at
 * the slots in order, is built once per capacity; so a launch writes only the values, allocating nothing. The driver
 * copies the values during {@code cuLaunchKernel}, so the block may be reused by the next launch. The memory is
 * owned by a shared arena closed by {@link #close()}. Not thread-safe (the backend's single caller).
 */
final class LaunchParameterBuffer implements AutoCloseable {
    private static final long SLOT = 8;

    private final Arena arena = Arena.ofShared();
    private MemorySegment pointers = MemorySegment.NULL;
    private MemorySegment values = MemorySegment.NULL;
    private int capacity;

    /**
     * Writes the arguments and returns the pointer array.
     *
     * @param device   the launch's device
     * @param registry resolves a buffer argument to its device pointer, checking that it may be used on
     *                 {@code device}
     * @throws BackendException naming the argument when its type cannot be passed
     */
    MemorySegment pack(String kernel, Object[] arguments, int device, CudaRegistry registry) {
        ensureCapacity(arguments.length);
        for (int i = 0; i < arguments.length; i++) {
            long offset = i * SLOT;
            switch (arguments[i]) {
                case Integer v -> values.set(JAVA_INT, offset, v);
                case Float v -> values.set(JAVA_FLOAT, offset, v);
                case Long v -> values.set(JAVA_LONG, offset, v);
                case Double v -> values.set(JAVA_DOUBLE, offset, v);
                case Short v -> values.set(JAVA_SHORT, offset, v);
                case Byte v -> values.set(JAVA_BYTE, offset, v);
                case null -> throw new BackendException("argument " + (i + 1) + " of kernel '" + kernel
                        + "' is null");
                default -> values.set(JAVA_LONG, offset, registry.kernelPointer(kernel, i, arguments[i], device));
            }
        }
        return pointers;
    }

    private void ensureCapacity(int n) {
        if (n <= capacity) {
            return;
        }
        int grown = Math.max(n, Math.max(16, capacity * 2));
        values = arena.allocate(grown * SLOT, SLOT);
        pointers = arena.allocate(ADDRESS, grown);
        for (int i = 0; i < grown; i++) {
            pointers.setAtIndex(ADDRESS, i, values.asSlice(i * SLOT, SLOT));
        }
        capacity = grown;
    }

    @Override
    public void close() {
        arena.close();
    }
}
