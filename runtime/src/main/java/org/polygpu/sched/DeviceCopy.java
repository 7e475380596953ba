package org.polygpu.sched;

import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/** A copy of all of {@code src} into {@code dst} (arrays of one byte size), done on one device. */
record DeviceCopy(DeviceArray src, DeviceArray dst) implements Work {
    /** @throws IllegalArgumentException when either array is freed, the sizes differ or they are one array */
    DeviceCopy {
        src.checkLive();
        dst.checkLive();
        if (src.byteSize() != dst.byteSize()) {
            throw new IllegalArgumentException("cannot copy " + src + " (" + src.byteSize() + " bytes) into " + dst
                    + " (" + dst.byteSize() + " bytes)");
        }
        if (src == dst) {
            throw new IllegalArgumentException("cannot copy " + src + " onto itself");
        }
    }

    @Override
    public Computation.Kind kind() {
        return Computation.Kind.COPY;
    }

    @Override
    public String name() {
        return "copy " + src + " to " + dst;
    }

    @Override
    public ArrayAccess[] accesses() {
        return new ArrayAccess[] {new ArrayAccess(src, Access.READ), new ArrayAccess(dst, Access.WRITE)};
    }

    /** Copies between the two replicas on {@code device}. */
    @Override
    public void enqueue(Backend backend, int device, StreamHandle stream, OperationLabel label) {
        DeviceBuffer from = src.deviceReplica(device);
        DeviceBuffer to = dst.deviceReplica(device);
        backend.copyDeviceToDevice(from, to, from.bytes(), stream, label);
    }
}
