package org.polygpu.array;

import java.util.BitSet;

import org.polygpu.sched.spi.LocationSet;

/**
 * The MSI-like coherence state of one array over its locations (devices {@code 0..n-1}, host {@code n}).
 *
 * <p>A location is <b>Modified</b> when it holds the only valid copy and that copy was written there,
 * <b>Shared</b> when it is valid (possibly with others), <b>Invalid</b> otherwise. Transitions happen when work is
 * scheduled, not when it completes:
 * <ul>
 *   <li>a fresh array starts Shared on the host only, as a host allocation would; since every replica is
 *       zero-filled when it is allocated lazily, a replica of a <em>pristine</em> array (never written anywhere)
 *       becomes valid without a copy;</li>
 *   <li>a write at {@code d} → {@code d} Modified, every other location Invalid;</li>
 *   <li>a read at {@code d} → {@code d} Shared (after a copy if it was Invalid); a Modified holder becomes
 *       Shared;</li>
 *   <li>a drop at {@code d} (the replica evicted) → {@code d} Invalid; never of the only valid copy of a written
 *       array, which is first written back (a read at the host).</li>
 * </ul>
 *
 * <p><b>Host chunks.</b> The devices' states are per array; the host's is per chunk too: while the host is not
 * valid as a whole, single chunks of its copy may be (element reads bring only the chunk that holds the element).
 * Such a host is Invalid for the array as a whole ({@link #isValid}, {@link #validLocations}, so kernels and bulk
 * copies never take it as a source) and valid for its chunks ({@link #isHostChunkValid}). A chunk is valid on the
 * host only while every valid device holds the same bytes: any write invalidates the host's chunks, and a read of
 * the whole array at the host makes them moot. Chunk numbers and sizes are the caller's.
 *
 * <p><b>Host chunk writes.</b> A host write to chunks of an array the host does not hold whole makes those chunks
 * Modified on the host ({@link #writeHostChunks}: <em>dirty</em>) and, as MSI requires of a write, every device
 * Invalid but one, the <em>backing</em> device ({@link #backing}): it still holds every other chunk's current bytes,
 * and the host holds the dirty ones. Per chunk, the states are thus those above: a dirty chunk is Modified on the host
 * and Invalid everywhere else; another chunk is Shared by the backing device and, when the host read it, the host.
 * For the array as a whole no location is valid then; {@link #validLocations} answers the backing device alone, so
 * that policies estimating transfers and code choosing a source still find one, and the owner must merge the dirty
 * chunks before anything uses the array whole: pushing them into a device replica made from the backing one
 * ({@link #flushedHostChunks}) or completing the host's copy from it ({@link #hostCompleted}).
 * Not thread-safe: owned by the scheduler's thread.
 */
public final class Coherence {
    /** The state of one location. */
    public enum State { MODIFIED, SHARED, INVALID }

    private final int deviceCount;
    private LocationSet valid;
    private boolean written;
    /** The chunks valid on the host while the host is not valid as a whole; null when none. */
    private BitSet hostChunks;
    /** The chunks the host wrote while not valid as a whole (a subset of {@link #hostChunks}); null when none. */
    private BitSet hostDirty;
    private int hostChunkReads;

    public Coherence(int deviceCount) {
        this.deviceCount = deviceCount;
        this.valid = LocationSet.host(deviceCount);
    }

    /** The locations holding an up-to-date copy. */
    public LocationSet validLocations() {
        return valid;
    }

    public boolean isValid(int location) {
        return valid.contains(location);
    }

    /** Whether {@code location} holds the only up-to-date copy. */
    public boolean isOnlyValid(int location) {
        return valid.contains(location) && valid.size() == 1;
    }

    public State state(int location) {
        if (!isValid(location)) {
            return State.INVALID;
        }
        return written && valid.size() == 1 ? State.MODIFIED : State.SHARED;
    }

    /** A writer at {@code location}: it becomes the only valid copy. */
    public void write(int location) {
        valid = LocationSet.of(location);
        written = true;
        forgetHostChunks();
    }

    /** A reader at {@code location} now holds a valid copy too. */
    public void read(int location) {
        if (hostDirty != null) {
            throw new IllegalStateException("location " + location + " cannot read the whole array while the host "
                    + "holds dirty chunks; they must be merged first");
        }
        valid = valid.with(location);
        if (location == deviceCount) {
            forgetHostChunks();
        }
    }

    /**
     * The replica at {@code location} was dropped (evicted): it is no longer valid there; the other locations keep
     * their states.
     *
     * @throws IllegalStateException when it held the only valid copy of an array that was written
     */
    public void drop(int location) {
        LocationSet rest = valid.without(location);
        if (rest.isEmpty() && written) {
            throw new IllegalStateException("location " + location + " holds the only valid copy; it must be "
                    + "written back before it is dropped");
        }
        valid = rest;
    }

    /** Whether chunk {@code chunk} of the host's copy is up to date: the whole copy is, or that chunk was read. */
    public boolean isHostChunkValid(long chunk) {
        return isValid(deviceCount) || hostChunks != null && hostChunks.get(Math.toIntExact(chunk));
    }

    /** The host read chunk {@code chunk} alone from a valid device. */
    public void readHostChunk(long chunk) {
        if (hostChunks == null) {
            hostChunks = new BitSet();
        }
        hostChunks.set(Math.toIntExact(chunk));
        hostChunkReads++;
    }

    /** A bulk read copied chunks {@code from..to-1} to the host; they do not count as {@link #hostChunkReads}. */
    public void copiedHostChunks(long from, long to) {
        if (hostChunks == null) {
            hostChunks = new BitSet();
        }
        hostChunks.set(Math.toIntExact(from), Math.toIntExact(to));
    }

    /** How many chunks the host read alone since its copy was last invalidated. */
    public int hostChunkReads() {
        return hostChunkReads;
    }

    /** Whether the host holds chunks it wrote that no device has: the array must be merged before a whole use. */
    public boolean hasHostDirty() {
        return hostDirty != null;
    }

    /** The chunks the host wrote that no device has; empty when none. The caller must not change it. */
    public BitSet hostDirtyChunks() {
        return hostDirty == null ? new BitSet() : hostDirty;
    }

    /** The device that holds every chunk but the host's dirty ones, while {@link #hasHostDirty}. */
    public int backing() {
        if (hostDirty == null) {
            throw new IllegalStateException("the host has no dirty chunks");
        }
        return valid.first();
    }

    /**
     * The host wrote chunks {@code from..to-1}, having brought in first the bytes of them it did not overwrite; the
     * host is not valid as a whole. They become dirty; every device but {@code backing} (a valid device, or the
     * backing one already) becomes Invalid.
     *
     * @throws IllegalStateException when the host is valid as a whole or {@code backing} holds no valid copy
     */
    public void writeHostChunks(long from, long to, int backing) {
        if (isValid(deviceCount) || !isValid(backing)) {
            throw new IllegalStateException("a chunk write needs a host that is not valid as a whole and a valid "
                    + "backing device (valid locations " + valid + ", backing " + backing + ")");
        }
        if (hostChunks == null) {
            hostChunks = new BitSet();
        }
        if (hostDirty == null) {
            hostDirty = new BitSet();
        }
        hostChunks.set(Math.toIntExact(from), Math.toIntExact(to));
        hostDirty.set(Math.toIntExact(from), Math.toIntExact(to));
        valid = LocationSet.of(backing);
        written = true;
    }

    /**
     * The dirty chunks were pushed into {@code device}'s replica, made complete from the backing device: it now holds
     * the only valid copy of the whole array; the host's chunks stay valid, no longer dirty.
     */
    public void flushedHostChunks(int device) {
        valid = LocationSet.of(device);
        written = true;
        hostDirty = null;
    }

    /** The host brought in every chunk it lacked from the backing device: it holds the only valid copy, whole. */
    public void hostCompleted() {
        valid = LocationSet.host(deviceCount);
        written = true;
        forgetHostChunks();
    }

    private void forgetHostChunks() {
        hostChunks = null;
        hostDirty = null;
        hostChunkReads = 0;
    }

    /** Whether the array was never written, so every replica still holds zeros. */
    public boolean isPristine() {
        return !written;
    }

    public int deviceCount() {
        return deviceCount;
    }

    /** The host's location index. */
    public int host() {
        return deviceCount;
    }
}
