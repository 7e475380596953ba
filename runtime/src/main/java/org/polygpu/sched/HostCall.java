package org.polygpu.sched;

import org.polygpu.array.ArrayAccess;
import org.polygpu.backend.Backend;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/**
 * A call of a host function (a function of a shared library) that is given host pointers to the arrays it uses: done
 * by the host, after the computations it depends on and with the host replicas of its arrays up to date.
 */
record HostCall(String name, ArrayAccess[] arrays) implements Work {
    @Override
    public Computation.Kind kind() {
        for (ArrayAccess a : arrays) {
            if (!a.access().isReadOnly()) {
                return Computation.Kind.HOST_WRITE;
            }
        }
        return Computation.Kind.HOST_READ;
    }

    @Override
    public ArrayAccess[] accesses() {
        return arrays.clone();
    }

    @Override
    public void enqueue(Backend backend, int device, StreamHandle stream, OperationLabel label) {
        throw new IllegalStateException(name + " is a host function; it is never enqueued on a stream");
    }
}
