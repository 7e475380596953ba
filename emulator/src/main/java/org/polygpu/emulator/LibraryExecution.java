package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.LibraryRoutine;

/**
 * A library routine run in Java: its demand, a roofline using the whole device, and its implementation run over device memory when the
 * operation completes. An argument out of range (a size past an array's end, a zero stride) is the routine's fault.
 */
record LibraryExecution(LibraryRoutine routine, int device, Object[] arguments, KernelDemand demand)
        implements KernelExecution {
    @Override
    public KernelDemand start() {
        return demand;
    }

    @Override
    public void finish() {
        Object[] memory = arguments.clone();
        for (int i = 0; i < memory.length; i++) {
            if (memory[i] instanceof EmulatedBuffer b) {
                memory[i] = b.segment();
            } else if (memory[i] instanceof BufferOffset o) {
                memory[i] = ((EmulatedBuffer) o.buffer()).segment().asSlice(o.bytes());
            }
        }
        try {
            routine.runInJava(memory);
        } catch (IndexOutOfBoundsException e) {
            throw new BackendException(routine.name() + " on device " + device + " accessed memory out of bounds: "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new BackendException(routine.name() + " on device " + device + " failed: " + e.getMessage(), e);
        }
    }
}
