package org.polygpu.array;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;

/**
 * An array managed by the runtime: element type, row-major shape, and one replica per location (host and each
 * device), allocated lazily, whose validity is tracked by {@link Coherence}.
 *
 * <p>For every location the array also remembers the work after which that replica's contents are ready
 * ({@link #readyProducer(int)} and the event recorded after it), so a copy from it or a kernel on it waits for
 * exactly that work. Lifecycle: LIVE → FREED (by the scheduler, after pending work on it completed); every use of
 * a freed array is an error. Under {@code MemoryModel=managed} every location's replica is one managed allocation
 * ({@link #managedBuffer()}), whose host view is the host replica. Not thread-safe: owned by the scheduler's thread,
 * except {@link #directHostRead()}
 * and {@link #directHostWrite()}, which any thread may call. The scheduler owns the replicas' memory and frees it.
 *
 * <p><b>Direct host access.</b> After a host access the scheduler may grant the host the right to read (and, when
 * the host holds the only copy, to write) the host replica directly, without scheduling anything, until it revokes
 * the grant: before any device work on the array is scheduled, and when the array is freed. Element reads and writes
 * from guest loops use it; threads that share an array while one of them launches work on it order their uses
 * themselves, as they would for the data anyway.
 */
public final class DeviceArray {
    private final long id;
    private final ElementType elementType;
    private final long[] shape;
    private final long elementCount;
    private final Coherence coherence;
    private final DeviceBuffer[] deviceReplicas;
    private final Producer[] readyProducers;
    private final EventHandle[] readyEvents;
    private final long[] lastUse;
    private MemorySegment hostReplica;
    private DeviceBuffer managed;
    private volatile ByteBuffer directRead;
    private volatile ByteBuffer directWrite;
    private boolean freed;

    public DeviceArray(long id, ElementType elementType, long[] shape, int deviceCount) {
        if (shape.length == 0) {
            throw new IllegalArgumentException("an array needs at least one dimension");
        }
        // Exact arithmetic: the product of the sizes must not wrap before it is compared with the limit.
        BigInteger count = BigInteger.ONE;
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] < 1) {
                throw new IllegalArgumentException("dimension " + i + " of the array is " + shape[i]
                        + "; sizes must be at least 1");
            }
            count = count.multiply(BigInteger.valueOf(shape[i]));
        }
        BigInteger bytes = count.multiply(BigInteger.valueOf(elementType.bytes()));
        if (bytes.bitLength() > 62) {
            throw new IllegalArgumentException("an array of " + elementType.cName() + " with shape "
                    + Arrays.toString(shape) + " is too large: " + bytes + " bytes, more than 2^62");
        }
        this.id = id;
        this.elementType = elementType;
        this.shape = shape.clone();
        this.elementCount = count.longValueExact();
        this.coherence = new Coherence(deviceCount);
        this.deviceReplicas = new DeviceBuffer[deviceCount];
        this.readyProducers = new Producer[deviceCount + 1];
        this.readyEvents = new EventHandle[deviceCount + 1];
        this.lastUse = new long[deviceCount];
    }

    public long id() {
        return id;
    }

    public ElementType elementType() {
        return elementType;
    }

    public long[] shape() {
        return shape.clone();
    }

    public long elementCount() {
        return elementCount;
    }

    public long byteSize() {
        return elementCount * elementType.bytes();
    }

    public Coherence coherence() {
        return coherence;
    }

    public boolean isFreed() {
        return freed;
    }

    /** @throws IllegalStateException if the array was freed */
    public void checkLive() {
        if (freed) {
            throw new IllegalStateException(this + " was freed");
        }
    }

    /** @throws IndexOutOfBoundsException naming the index and the size */
    public void checkIndex(long index) {
        if (index < 0 || index >= elementCount) {
            throw new IndexOutOfBoundsException("index " + index + " is out of range for " + this
                    + " (valid: 0.." + (elementCount - 1) + ")");
        }
    }

    /** The replica on {@code device}, or null if not allocated yet. */
    public DeviceBuffer deviceReplica(int device) {
        return deviceReplicas[device];
    }

    public void setDeviceReplica(int device, DeviceBuffer buffer) {
        deviceReplicas[device] = buffer;
    }

    /** The array's one managed allocation ({@code MemoryModel=managed}), or null. */
    public DeviceBuffer managedBuffer() {
        return managed;
    }

    /**
     * Makes {@code buffer}, managed memory, the array's only allocation: the replica of every device, and through
     * {@code hostView} the host's.
     */
    public void setManaged(DeviceBuffer buffer, MemorySegment hostView) {
        managed = buffer;
        Arrays.fill(deviceReplicas, buffer);
        hostReplica = hostView;
    }

    /** The host replica, or null if not allocated yet. */
    public MemorySegment hostReplica() {
        return hostReplica;
    }

    public void setHostReplica(MemorySegment segment) {
        hostReplica = segment;
    }

    /**
     * The host replica, as a buffer in native byte order, when the host may read it without the scheduler (see the
     * class comment), else null. A buffer rather than the segment: compilers that inline guest code (Truffle's)
     * reduce a buffer's accesses to loads and stores, while a segment's go through var handles they cannot inline.
     */
    public ByteBuffer directHostRead() {
        return directRead;
    }

    /** The host replica as {@link #directHostRead()} gives it, when the host may also write it directly. */
    public ByteBuffer directHostWrite() {
        return directWrite;
    }

    /**
     * Lets the host read the host replica directly, and write it too when {@code write}; the caller has checked
     * that the replica is valid, that no unfinished work writes the array, and for a write that no unfinished work
     * uses it and no other location holds a copy. A replica larger than a buffer can address (2 GiB) is not granted.
     */
    public void grantDirectHostAccess(boolean write) {
        if (hostReplica == null || hostReplica.byteSize() > Integer.MAX_VALUE) {
            return;
        }
        ByteBuffer buffer = directRead != null ? directRead : hostReplica.asByteBuffer().order(ByteOrder.nativeOrder());
        directRead = buffer;
        directWrite = write ? buffer : null;
    }

    /** Ends direct host access: work on the array is about to be scheduled, or the array is freed. */
    public void revokeDirectHostAccess() {
        directWrite = null;
        directRead = null;
    }

    /** The work after which the replica at {@code location} is ready, or null if it is ready now. */
    public Producer readyProducer(int location) {
        Producer p = readyProducers[location];
        return p == null || p.isFinished() ? null : p;
    }

    /** The event recorded after {@link #readyProducer(int)}'s work. */
    public EventHandle readyEvent(int location) {
        return readyEvents[location];
    }

    public void setReady(int location, Producer producer, EventHandle event) {
        readyProducers[location] = producer;
        readyEvents[location] = event;
    }

    /** When work last used the replica on {@code device}, in the scheduler's count of uses; 0 if never. */
    public long lastUse(int device) {
        return lastUse[device];
    }

    /** Work uses the replica on {@code device}: {@code stamp}, larger than every earlier one, orders the uses. */
    public void used(int device, long stamp) {
        lastUse[device] = stamp;
    }

    /** Marks the array freed; the caller has released the replicas. */
    public void markFreed() {
        revokeDirectHostAccess();
        freed = true;
        Arrays.fill(deviceReplicas, null);
        Arrays.fill(readyProducers, null);
        Arrays.fill(readyEvents, null);
        hostReplica = null;
        managed = null;
    }

    /** The array as C declares it, e.g. {@code array #3 float[1000]}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("array #").append(id).append(' ').append(elementType.cName());
        for (long d : shape) {
            sb.append('[').append(d).append(']');
        }
        return sb.toString();
    }
}
