package org.polygpu.sched;

import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/**
 * A host-side access to an array: an element read or write, or a bulk copy to or from host memory.
 *
 * @param access {@code READ} for a read; for a write, {@code WRITE} when it overwrites the whole array and
 *               {@code READ_WRITE} when the rest must keep its contents
 * @param index  the element accessed, or -1 for a bulk copy
 */
record HostAccess(DeviceArray array, Access access, long index) implements Work {
    /** A bulk copy, whole or partial. */
    private static final long BULK = -1;

    static HostAccess readElement(DeviceArray array, long index) {
        return new HostAccess(array, Access.READ, index);
    }

    static HostAccess writeElement(DeviceArray array, long index) {
        return new HostAccess(array, Access.READ_WRITE, index);
    }

    static HostAccess copyToHost(DeviceArray array) {
        return new HostAccess(array, Access.READ, BULK);
    }

    /** @param whole whether the copy covers the whole array, so the host needs none of its previous contents */
    static HostAccess copyFromHost(DeviceArray array, boolean whole) {
        return new HostAccess(array, whole ? Access.WRITE : Access.READ_WRITE, BULK);
    }

    boolean isRead() {
        return access.isReadOnly();
    }

    @Override
    public Computation.Kind kind() {
        return isRead() ? Computation.Kind.HOST_READ : Computation.Kind.HOST_WRITE;
    }

    @Override
    public String name() {
        if (index < 0) {
            return isRead() ? "copy " + array + " to host" : "copy host to " + array;
        }
        return (isRead() ? "read " : "write ") + array + "[" + index + "]";
    }

    @Override
    public ArrayAccess[] accesses() {
        return new ArrayAccess[] {new ArrayAccess(array, access)};
    }

    @Override
    public void enqueue(Backend backend, int device, StreamHandle stream, OperationLabel label) {
        throw new IllegalStateException(name() + " is done by the host; it is never enqueued on a stream");
    }
}
