package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.LaunchConfig;

/**
 * The checks a launch passes before it is enqueued, with CUDA's limits: block and grid extents, threads per block,
 * shared memory, and arguments (scalar types, live buffers of the launch's own device or managed memory). Each
 * failure is a {@link BackendException} that names the kernel and the problem.
 */
final class LaunchChecks {
    /** Largest grid y and z extent; grid x is limited to 2^31 - 1, which an {@code int} cannot exceed. */
    static final int MAX_GRID_YZ = 65_535;
    static final int MAX_BLOCK_XY = 1024;
    static final int MAX_BLOCK_Z = 64;

    private LaunchChecks() {
    }

    static void checkConfig(String kernel, LaunchConfig config, DeviceModel model) {
        Dim3 grid = config.grid();
        Dim3 block = config.block();
        if (grid.y() > MAX_GRID_YZ || grid.z() > MAX_GRID_YZ) {
            throw new BackendException("kernel '" + kernel + "': grid " + show(grid) + " exceeds the limit of "
                    + MAX_GRID_YZ + " in y and z");
        }
        if (block.x() > MAX_BLOCK_XY || block.y() > MAX_BLOCK_XY || block.z() > MAX_BLOCK_Z) {
            throw new BackendException("kernel '" + kernel + "': block " + show(block) + " exceeds the limits ("
                    + MAX_BLOCK_XY + ", " + MAX_BLOCK_XY + ", " + MAX_BLOCK_Z + ")");
        }
        if (block.count() > model.maxThreadsPerBlock()) {
            throw new BackendException("kernel '" + kernel + "': block " + show(block) + " has " + block.count()
                    + " threads, more than the " + model.maxThreadsPerBlock() + " threads per block of "
                    + model.name());
        }
        if (config.sharedMemoryBytes() > model.maxSharedMemoryPerBlock()) {
            throw new BackendException("kernel '" + kernel + "': " + config.sharedMemoryBytes()
                    + " bytes of shared memory requested, more than the " + model.maxSharedMemoryPerBlock()
                    + " bytes per block of " + model.name());
        }
    }

    /**
     * A private copy of {@code arguments} once each is a boxed scalar or a live buffer of {@code owner} on
     * {@code device}.
     */
    static Object[] checkArguments(String kernel, Object[] arguments, int device, Object owner) {
        Object[] checked = arguments.clone();
        for (int i = 0; i < checked.length; i++) {
            Object a = checked[i];
            DeviceBuffer buffer = a instanceof BufferOffset o ? o.buffer() : a instanceof DeviceBuffer d ? d : null;
            if (buffer != null) {
                if (!(buffer instanceof EmulatedBuffer b) || b.owner() != owner) {
                    throw new BackendException("argument " + i + " of kernel '" + kernel
                            + "' is a buffer of another backend");
                }
                b.checkLive("argument " + i + " of kernel '" + kernel + "'");
                if (b.device() != device && !b.isManaged()) {
                    throw new BackendException("argument " + i + " of kernel '" + kernel + "' is a buffer of device "
                            + b.device() + " but the kernel is launched on device " + device
                            + " (a copy to device " + device + " is missing)");
                }
            } else if (!isScalar(a)) {
                throw new BackendException("argument " + i + " of kernel '" + kernel + "' is " + describe(a)
                        + "; expected a device buffer, an offset into one or a Byte, Short, Integer, Long, Float "
                        + "or Double");
            }
        }
        return checked;
    }

    /**
     * {@code arguments} with each {@link BufferOffset} replaced by its buffer: what an execution holds and a
     * kernel's memory reaches, while the offsets themselves go only into the parameter block. Without offsets it
     * returns {@code arguments} itself, which callers must not modify.
     */
    static Object[] withoutOffsets(Object[] arguments) {
        Object[] buffers = arguments;
        for (int i = 0; i < buffers.length; i++) {
            if (buffers[i] instanceof BufferOffset o) {
                if (buffers == arguments) {
                    buffers = arguments.clone(); // copied only when there is an offset to replace
                }
                buffers[i] = o.buffer();
            }
        }
        return buffers;
    }

    /** An argument in words, for messages. */
    static String describe(Object argument) {
        if (argument == null) {
            return "null";
        }
        if (argument instanceof EmulatedBuffer b) {
            return "a " + b;
        }
        return "a " + argument.getClass().getSimpleName() + " (" + argument + ")";
    }

    private static boolean isScalar(Object a) {
        return a instanceof Byte || a instanceof Short || a instanceof Integer || a instanceof Long
                || a instanceof Float || a instanceof Double;
    }

    private static String show(Dim3 d) {
        return "(" + d.x() + ", " + d.y() + ", " + d.z() + ")";
    }
}
