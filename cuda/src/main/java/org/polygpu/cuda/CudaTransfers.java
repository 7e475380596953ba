package org.polygpu.cuda;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

/**
 * The CUDA backend's copies: resolves the handles, checks sizes, devices and host memory, then enqueues
 * {@code cuMemcpyHtoDAsync_v2}, {@code cuMemcpyDtoHAsync_v2}, {@code cuMemcpyDtoDAsync_v2} (within a device) or
 * {@code cuMemcpyPeerAsync} (between devices), bracketed by timeline events when the timeline is recorded. Not
 * thread-safe.
 */
final class CudaTransfers {
    private final CudaDevices devices;
    private final CudaDriver driver;
    private final CudaRegistry registry;
    private final CudaTimeline timeline;

    CudaTransfers(CudaDevices devices, CudaDriver driver, CudaRegistry registry, CudaTimeline timeline) {
        this.devices = devices;
        this.driver = driver;
        this.registry = registry;
        this.timeline = timeline;
    }

    void hostToDevice(MemorySegment src, DeviceBuffer destination, long dstOffset, long bytes, StreamHandle stream,
                      OperationLabel label) {
        CudaHandles.Buffer dst = registry.buffer(destination, "copy destination");
        CudaHandles.Stream s = registry.stream(stream);
        streamOn(s, at(dst, s), "destination");
        host(src, bytes, "source");
        if (dstOffset < 0 || dstOffset > dst.bytes) {
            throw new BackendException("copy offset " + dstOffset + " is outside the " + dst.bytes
                    + " bytes of the destination " + dst);
        }
        bytes(bytes, dst.bytes - dstOffset, "destination " + dst + " from byte " + dstOffset);
        Objects.requireNonNull(label, "label");
        devices.current(s.device);
        MemorySegment start = timeline.begin(s.device, s.handle);
        driver.copyHostToDeviceAsync(dst.pointer + dstOffset, src, bytes, s.handle);
        timeline.end(start, s.device, s.id, s.handle, TimedOperation.Kind.COPY_HOST_TO_DEVICE, label, bytes, -1);
    }

    void deviceToHost(DeviceBuffer source, long srcOffset, MemorySegment dst, long bytes, StreamHandle stream,
                      OperationLabel label) {
        CudaHandles.Buffer src = registry.buffer(source, "copy source");
        CudaHandles.Stream s = registry.stream(stream);
        streamOn(s, at(src, s), "source");
        host(dst, bytes, "destination");
        if (dst.isReadOnly()) {
            throw new BackendException("the host destination of the copy is read-only");
        }
        if (srcOffset < 0 || srcOffset > src.bytes) {
            throw new BackendException("copy offset " + srcOffset + " is outside the " + src.bytes
                    + " bytes of the source " + src);
        }
        bytes(bytes, src.bytes - srcOffset, "source " + src + " from byte " + srcOffset);
        Objects.requireNonNull(label, "label");
        devices.current(s.device);
        MemorySegment start = timeline.begin(s.device, s.handle);
        driver.copyDeviceToHostAsync(dst, src.pointer + srcOffset, bytes, s.handle);
        timeline.end(start, s.device, s.id, s.handle, TimedOperation.Kind.COPY_DEVICE_TO_HOST, label, bytes,
                src.device);
    }

    void deviceToDevice(DeviceBuffer source, DeviceBuffer destination, long bytes, StreamHandle stream,
                        OperationLabel label) {
        CudaHandles.Buffer src = registry.buffer(source, "copy source");
        CudaHandles.Buffer dst = registry.buffer(destination, "copy destination");
        CudaHandles.Stream s = registry.stream(stream);
        streamOn(s, at(dst, s), "destination");
        bytes(bytes, src.bytes, "source " + src);
        bytes(bytes, dst.bytes, "destination " + dst);
        Objects.requireNonNull(label, "label");
        devices.current(s.device);
        MemorySegment start = timeline.begin(s.device, s.handle);
        if (at(src, s) == at(dst, s)) {
            driver.copyDeviceToDeviceAsync(dst.pointer, src.pointer, bytes, s.handle);
        } else {
            driver.copyPeerAsync(dst.pointer, devices.context(dst.device), src.pointer, devices.context(src.device),
                    bytes, s.handle);
        }
        timeline.end(start, s.device, s.id, s.handle, TimedOperation.Kind.COPY_DEVICE_TO_DEVICE, label, bytes,
                src.device);
    }

    /** Where a copy reads or writes a buffer: its device, or for managed memory (unified addresses) the stream's. */
    private static int at(CudaHandles.Buffer b, CudaHandles.Stream s) {
        return b.device == DeviceBuffer.MANAGED ? s.device : b.device;
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
