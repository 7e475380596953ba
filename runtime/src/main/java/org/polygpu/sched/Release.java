package org.polygpu.sched;

import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/** The release of an array's replicas, done by the host once the computations using the array finished. */
record Release(DeviceArray array) implements Work {
    @Override
    public Computation.Kind kind() {
        return Computation.Kind.FREE;
    }

    @Override
    public String name() {
        return "free " + array;
    }

    /** Written, so that the release waits for every computation using the array. */
    @Override
    public ArrayAccess[] accesses() {
        return new ArrayAccess[] {new ArrayAccess(array, Access.WRITE)};
    }

    @Override
    public void enqueue(Backend backend, int device, StreamHandle stream, OperationLabel label) {
        throw new IllegalStateException(name() + " is done by the host; it is never enqueued on a stream");
    }
}
