package org.polygpu.emulator;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.Consumer;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.emulator.timing.CopySpec;

/**
 * The emulated backend's copies: host to device, device to host, and within or between devices. Each is checked
 * ({@link CopyChecks}), waits for room on its stream, and is enqueued as a {@link CopyOperation} on the link the
 * {@link LinkModel} gives it, with its {@link CopyCost}: host memory from {@code allocateHost} is pinned, any other
 * host memory pageable; host memory is retained until the copy completes.
 *
 * <p>Not thread-safe (the backend's single caller); the backend checks that it is open.
 */
final class EmulatedTransfers {
    private final Handles handles;
    private final HostMemory hostMemory;
    private final LinkModel links;
    private final HostClock host;
    private final Consumer<EmulatedStream> awaitRoom;
    private final ManagedMemory managed;
    private final int deviceCount;
    private final CopySpec copies;
    /** The latency of every copy when the builder set one, else -1: each kind's from the model. */
    private final long fixedLatencyNanos;

    /** @param awaitRoom blocks the host while a stream's queue is full (the backend's back-pressure) */
    EmulatedTransfers(Handles handles, HostMemory hostMemory, LinkModel links, HostClock host,
                      Consumer<EmulatedStream> awaitRoom, ManagedMemory managed, int deviceCount, CopySpec copies,
                      long fixedLatencyNanos) {
        this.copies = copies;
        this.fixedLatencyNanos = fixedLatencyNanos;
        this.managed = managed;
        this.deviceCount = deviceCount;
        this.handles = handles;
        this.hostMemory = hostMemory;
        this.links = links;
        this.host = host;
        this.awaitRoom = awaitRoom;
    }

    /** @throws BackendException naming what is wrong with the copy */
    void hostToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes, StreamHandle stream,
                      OperationLabel label) {
        EmulatedBuffer d = handles.buffer(dst, "copy destination");
        EmulatedStream s = handles.stream(stream);
        CopyChecks.streamDevice(s, at(d, s), "destination");
        CopyChecks.host(src, bytes, "source", false);
        CopyChecks.offset(dstOffset, bytes, d.bytes(), "destination " + d);
        LinkModel.Link link = CopyChecks.link(links, -1, at(d, s));
        Objects.requireNonNull(label, "label");
        awaitRoom.accept(s);
        HostMemory.Allocation pinned = hostMemory.retain(src);
        host.enqueue(CopyOperation.hostToDevice(s, label, src, pinned, d, dstOffset, bytes, link,
                CopyCost.host(copies, true, pinned != null, bytes, fixedLatencyNanos)));
    }

    /** @throws BackendException naming what is wrong with the copy */
    void deviceToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes, StreamHandle stream,
                      OperationLabel label) {
        EmulatedBuffer from = handles.buffer(src, "copy source");
        EmulatedStream s = handles.stream(stream);
        CopyChecks.streamDevice(s, at(from, s), "source");
        CopyChecks.host(dst, bytes, "destination", true);
        CopyChecks.offset(srcOffset, bytes, from.bytes(), "source " + from);
        LinkModel.Link link = CopyChecks.link(links, at(from, s), -1);
        Objects.requireNonNull(label, "label");
        awaitRoom.accept(s);
        HostMemory.Allocation pinned = hostMemory.retain(dst);
        host.enqueue(CopyOperation.deviceToHost(s, label, from, srcOffset, dst, pinned, bytes, link,
                CopyCost.host(copies, false, pinned != null, bytes, fixedLatencyNanos)));
    }

    /** A copy within one device or between two; {@code stream} belongs to the destination's device. */
    void deviceToDevice(DeviceBuffer src, DeviceBuffer dst, long bytes, StreamHandle stream, OperationLabel label) {
        EmulatedBuffer from = handles.buffer(src, "copy source");
        EmulatedBuffer to = handles.buffer(dst, "copy destination");
        EmulatedStream s = handles.stream(stream);
        CopyChecks.streamDevice(s, at(to, s), "destination");
        CopyChecks.bytes(bytes, from.bytes(), "source " + from);
        CopyChecks.bytes(bytes, to.bytes(), "destination " + to);
        LinkModel.Link link = CopyChecks.link(links, at(from, s), at(to, s));
        Objects.requireNonNull(label, "label");
        awaitRoom.accept(s);
        host.enqueue(CopyOperation.deviceToDevice(s, label, from, to, bytes, link,
                CopyCost.device(copies, fixedLatencyNanos).plusLatency(link.latencyNanos())));
    }

    /**
     * Migrates the pages of bytes {@code offset..offset+bytes} of a managed buffer to {@code device} ({@code -1}: the
     * host) in {@code stream}'s order ({@link MigrationOperation}).
     *
     * @throws BackendException naming what is wrong with the migration
     */
    void migrate(DeviceBuffer buffer, long offset, long bytes, int device, StreamHandle stream, OperationLabel label) {
        EmulatedBuffer b = handles.buffer(buffer, "prefetch");
        EmulatedStream s = handles.stream(stream);
        if (!b.isManaged()) {
            throw new BackendException("cannot prefetch " + b + ": only managed memory migrates");
        }
        CopyChecks.offset(offset, bytes, b.bytes(), b.toString());
        Objects.requireNonNull(label, "label");
        awaitRoom.accept(s);
        host.enqueue(new MigrationOperation(s, label, b, offset, bytes, device < 0 ? PageResidency.HOST : device,
                links, managed, deviceCount));
    }

    /**
     * Where a copy's buffer is read or written: its device, or for managed memory the stream's device (the caller
     * migrated it there first; the copy moves no pages).
     */
    private static int at(EmulatedBuffer buffer, EmulatedStream stream) {
        return buffer.isManaged() ? stream.device() : buffer.device();
    }
}
