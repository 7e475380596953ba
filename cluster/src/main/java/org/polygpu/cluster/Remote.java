package org.polygpu.cluster;

import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.StreamHandle;

/**
 * Rank 0's handles of objects that live on another rank: the device is global (rank-major), the key names the
 * object in that rank's {@link ObjectTable}. Events are {@link RemoteEvent}s, which also count their records.
 */
final class Remote {
    private Remote() {
    }

    record Buffer(int device, long bytes, int rank, long key) implements DeviceBuffer {
    }

    record Stream(int device, int id, int rank, long key) implements StreamHandle {
    }

    record Module(int device, int rank, long key) implements ModuleHandle {
    }

    record Function(String name, int device, int rank, long key) implements FunctionHandle {
    }
}
