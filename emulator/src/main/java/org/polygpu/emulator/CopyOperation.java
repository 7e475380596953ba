package org.polygpu.emulator;

import java.lang.foreign.MemorySegment;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;

/**
 * A copy between two locations (the host or a device): after its latency it joins its directed link and moves its
 * bytes at the link's shared rate, slowed down for pageable host memory ({@link CopyCost}, {@link LinkModel}); the
 * bytes land in the destination when it completes.
 *
 * <p>Host memory is referenced, not copied, at enqueue: as the backend contract says, it must stay untouched until
 * the copy completes, and a program that breaks the rule sees the effect.
 */
final class CopyOperation extends Operation implements LinkTransfer {
    private final TimedOperation.Kind kind;
    private final EmulatedBuffer sourceBuffer;
    /** Where in the source buffer the copy starts (a device-to-host copy may read part of a buffer). */
    private final long sourceOffset;
    private final MemorySegment sourceHost;
    private final EmulatedBuffer destinationBuffer;
    private final long destinationOffset;
    private final MemorySegment destinationHost;
    private final HostMemory.Allocation hostAllocation;
    private final long bytes;
    private final LinkModel.Link link;
    private final CopyCost cost;
    /** The link's cumulative per-transfer service at which this copy is done; set when it joins. */
    private double serviceTarget;

    private CopyOperation(EmulatedStream stream, OperationLabel label, TimedOperation.Kind kind,
                          EmulatedBuffer sourceBuffer, long sourceOffset, MemorySegment sourceHost,
                          EmulatedBuffer destinationBuffer, long destinationOffset, MemorySegment destinationHost,
                          HostMemory.Allocation hostAllocation, long bytes, LinkModel.Link link, CopyCost cost) {
        super(stream, label);
        this.cost = cost;
        this.kind = kind;
        this.sourceBuffer = sourceBuffer;
        this.sourceOffset = sourceOffset;
        this.sourceHost = sourceHost;
        this.destinationBuffer = destinationBuffer;
        this.destinationOffset = destinationOffset;
        this.destinationHost = destinationHost;
        this.hostAllocation = hostAllocation;
        this.bytes = bytes;
        this.link = link;
        if (sourceBuffer != null) {
            sourceBuffer.retain();
        }
        if (destinationBuffer != null) {
            destinationBuffer.retain();
        }
    }

    static CopyOperation hostToDevice(EmulatedStream stream, OperationLabel label, MemorySegment source,
                                      HostMemory.Allocation allocation, EmulatedBuffer destination,
                                      long destinationOffset, long bytes, LinkModel.Link link, CopyCost cost) {
        return new CopyOperation(stream, label, TimedOperation.Kind.COPY_HOST_TO_DEVICE, null, 0, source,
                destination, destinationOffset, null, allocation, bytes, link, cost);
    }

    static CopyOperation deviceToHost(EmulatedStream stream, OperationLabel label, EmulatedBuffer source,
                                      long sourceOffset, MemorySegment destination, HostMemory.Allocation allocation,
                                      long bytes, LinkModel.Link link, CopyCost cost) {
        return new CopyOperation(stream, label, TimedOperation.Kind.COPY_DEVICE_TO_HOST, source, sourceOffset, null,
                null, 0, destination, allocation, bytes, link, cost);
    }

    static CopyOperation deviceToDevice(EmulatedStream stream, OperationLabel label, EmulatedBuffer source,
                                        EmulatedBuffer destination, long bytes, LinkModel.Link link,
                                        CopyCost cost) {
        return new CopyOperation(stream, label, TimedOperation.Kind.COPY_DEVICE_TO_DEVICE, source, 0, null,
                destination, 0, null, null, bytes, link, cost);
    }

    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public double serviceBytes() {
        return bytes * cost.slowdown();
    }

    @Override
    public LinkModel.Link link() {
        return link;
    }

    @Override
    public double serviceTarget() {
        return serviceTarget;
    }

    @Override
    public void serviceTarget(double target) {
        serviceTarget = target;
    }

    @Override
    void start(Simulation simulation) {
        simulation.joinLinkAt(this, simulation.now() + cost.latencyNanos());
    }

    @Override
    void finish() {
        try {
            checkComputed();
            MemorySegment from = sourceBuffer != null ? sourceBuffer.segment() : sourceHost;
            MemorySegment to = destinationBuffer != null ? destinationBuffer.segment() : destinationHost;
            MemorySegment.copy(from, sourceOffset, to, destinationOffset, bytes);
            if (destinationBuffer != null) {
                boolean whole = bytes == destinationBuffer.bytes();
                boolean fromSampled = sourceBuffer != null && sourceBuffer.notComputed();
                destinationBuffer.notComputed(fromSampled || (!whole && destinationBuffer.notComputed()));
            }
        } catch (IllegalStateException e) {
            throw new BackendException(describe() + " failed: host memory was released before the copy completed", e);
        } finally {
            if (sourceBuffer != null) {
                sourceBuffer.release();
            }
            if (destinationBuffer != null) {
                destinationBuffer.release();
            }
            if (hostAllocation != null) {
                hostAllocation.release();
            }
        }
    }

    /**
     * Refuses to bring data of a sampled launch to the host: those bytes were not computed. Device-to-device copies
     * carry the mark along; a host-to-device copy of the whole buffer clears it.
     */
    private void checkComputed() {
        if (destinationHost != null && sourceBuffer.notComputed()) {
            throw new BackendException(describe() + " refused: the device buffer was written by a kernel run with "
                    + "EmulatedExecution=sampled, which interprets only a sample of each grid, so its contents were "
                    + "not computed; run with EmulatedExecution=full to read results");
        }
    }

    private int sourceLocation() {
        return sourceBuffer != null ? sourceBuffer.device() : -1;
    }

    private String describe() {
        return kind + " of " + bytes + " bytes on device " + stream().device() + " stream " + stream().id();
    }

    @Override
    TimedOperation timed() {
        return new TimedOperation(stream().device(), stream().id(), kind, label(), startNanos(), endNanos(), bytes,
                sourceLocation());
    }
}
