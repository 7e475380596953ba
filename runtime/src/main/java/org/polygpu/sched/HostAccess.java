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
 * @param index      the element accessed, or -1 for a bulk copy
 * @param byteOffset the first byte the access touches (what managed memory migrates to the host)
 * @param bytes      how many bytes it touches
 */
record HostAccess(DeviceArray array, Access access, long index, long byteOffset, long bytes) implements Work {
    /** A bulk copy, whole or partial. */
    private static final long BULK = -1;

    static HostAccess readElement(DeviceArray array, long index) {
        int size = array.elementType().bytes();
        return new HostAccess(array, Access.READ, index, index * size, size);
    }

    static HostAccess writeElement(DeviceArray array, long index) {
        int size = array.elementType().bytes();
        return new HostAccess(array, Access.READ_WRITE, index, index * size, size);
    }

    static HostAccess copyToHost(DeviceArray array) {
        return new HostAccess(array, Access.READ, BULK, 0, array.byteSize());
    }

    /**
     * @param whole whether the copy covers the whole array, so the host needs none of its previous contents; the
     *              bytes it touches are taken to be the whole array either way
     */
    static HostAccess copyFromHost(DeviceArray array, boolean whole) {
        return new HostAccess(array, whole ? Access.WRITE : Access.READ_WRITE, BULK, 0, array.byteSize());
    }

    /** A copy of {@code bytes} from the host into the array from byte {@code byteOffset} on. */
    static HostAccess copyFromHost(DeviceArray array, long byteOffset, long bytes) {
        boolean whole = byteOffset == 0 && bytes == array.byteSize();
        return new HostAccess(array, whole ? Access.WRITE : Access.READ_WRITE, BULK, byteOffset, bytes);
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
