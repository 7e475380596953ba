package org.polygpu.cuda;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;

/**
 * The CUDA backend's copies: checks sizes, devices and host memory, then enqueues {@code cuMemcpyHtoDAsync_v2},
 * {@code cuMemcpyDtoHAsync_v2}, {@code cuMemcpyDtoDAsync_v2} (within a device) or {@code cuMemcpyPeerAsync}
 * (between devices), bracketed by timeline events when the timeline is recorded. Not thread-safe.
 */
final class CudaTransfers {
    private final CudaBackend backend;
    private final CudaDriver driver;
    private final CudaTimeline timeline;

    CudaTransfers(CudaBackend backend, CudaDriver driver, CudaTimeline timeline) {
        this.backend = backend;
        this.driver = driver;
        this.timeline = timeline;
    }

    void hostToDevice(MemorySegment src, CudaHandles.Buffer dst, long bytes, CudaHandles.Stream s,
                      OperationLabel label) {
        streamOn(s, dst.device, "destination");
        host(src, bytes, "source");
        bytes(bytes, dst.bytes, "destination " + dst);
        Objects.requireNonNull(label, "label");
        backend.current(s.device);
        MemorySegment start = timeline.begin(s.device, s.handle);
        driver.copyHostToDeviceAsync(dst.pointer, src, bytes, s.handle);
        timeline.end(start, s.device, s.id, s.handle, TimedOperation.Kind.COPY_HOST_TO_DEVICE, label, bytes, -1);
    }

    void deviceToHost(CudaHandles.Buffer src, MemorySegment dst, long bytes, CudaHandles.Stream s,
                      OperationLabel label) {
        streamOn(s, src.device, "source");
        host(dst, bytes, "destination");
        if (dst.isReadOnly()) {
            throw new BackendException("the host destination of the copy is read-only");
        }
        bytes(bytes, src.bytes, "source " + src);
        Objects.requireNonNull(label, "label");
        backend.current(s.device);
        MemorySegment start = timeline.begin(s.device, s.handle);
        driver.copyDeviceToHostAsync(dst, src.pointer, bytes, s.handle);
        timeline.end(start, s.device, s.id, s.handle, TimedOperation.Kind.COPY_DEVICE_TO_HOST, label, bytes,
                src.device);
    }

    void deviceToDevice(CudaHandles.Buffer src, CudaHandles.Buffer dst, long bytes, CudaHandles.Stream s,
                        OperationLabel label) {
        streamOn(s, dst.device, "destination");
        bytes(bytes, src.bytes, "source " + src);
        bytes(bytes, dst.bytes, "destination " + dst);
        Objects.requireNonNull(label, "label");
        backend.current(s.device);
        MemorySegment start = timeline.begin(s.device, s.handle);
        if (src.device == dst.device) {
            driver.copyDeviceToDeviceAsync(dst.pointer, src.pointer, bytes, s.handle);
        } else {
            driver.copyPeerAsync(dst.pointer, backend.context(dst.device), src.pointer, backend.context(src.device),
                    bytes, s.handle);
        }
        timeline.end(start, s.device, s.id, s.handle, TimedOperation.Kind.COPY_DEVICE_TO_DEVICE, label, bytes,
                src.device);
    }

    private static void streamOn(CudaHandles.Stream s, int device, String role) {
        if (s.device != device) {
            throw new BackendException("the copy's " + role + " is on device " + device + " but it was enqueued on "
                    + s + "; copies run on a stream of the " + role + "'s device");
        }
    }

    private static void host(MemorySegment host, long bytes, String role) {
        Objects.requireNonNull(host, role);
        if (!host.isNative()) {
            throw new BackendException("the host " + role + " of the copy is a Java heap segment; the CUDA backend "
                    + "copies from native memory (use allocateHost for pinned memory)");
        }
        if (!host.scope().isAlive()) {
            throw new BackendException("the host " + role + " of the copy was freed");
        }
        bytes(bytes, host.byteSize(), "host " + role + " segment");
    }

    private static void bytes(long bytes, long available, String what) {
        if (bytes < 0) {
            throw new BackendException("cannot copy a negative number of bytes (" + bytes + ")");
        }
        if (bytes > available) {
            throw new BackendException("copy of " + bytes + " bytes exceeds the " + available + " bytes of the "
                    + what);
        }
    }
}
