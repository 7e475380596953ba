package org.polygpu.sched;

import java.util.List;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.LibraryRoutine;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/**
 * A call of a device library routine (a BLAS function), with its arguments checked against its parameters: it runs
 * on a device's stream like a kernel, and its pointer parameters' access modes give its dependencies.
 */
record LibraryLaunch(LibraryRoutine routine, List<Parameter> parameters, Object[] args) implements Work {
    @Override
    public Computation.Kind kind() {
        return Computation.Kind.KERNEL;
    }

    @Override
    public String name() {
        return routine.name();
    }

    @Override
    public ArrayAccess[] accesses() {
        return LibraryArguments.accesses(parameters, args);
    }

    /** Calls the routine on {@code device} with each array replaced by its replica there. */
    @Override
    public void enqueue(Backend backend, int device, StreamHandle stream, OperationLabel label) {
        Object[] onDevice = args.clone();
        for (int i = 0; i < onDevice.length; i++) {
            if (onDevice[i] instanceof DeviceArray a) {
                onDevice[i] = a.deviceReplica(device);
            } else if (onDevice[i] instanceof ArrayOffset o) {
                onDevice[i] = new BufferOffset(o.array().deviceReplica(device), o.bytes());
            }
        }
        backend.launchLibrary(routine, onDevice, stream, label);
    }
}
