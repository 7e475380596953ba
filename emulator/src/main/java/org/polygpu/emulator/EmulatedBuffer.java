package org.polygpu.emulator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;

/**
 * A device allocation of the emulator: zeroed off-heap memory owned by one virtual device, at a device address that
 * PTX kernels see as its pointer ({@link DeviceMemory} assigns addresses); or managed memory, which every device
 * addresses and whose pages a {@link PageResidency} places ({@link ManagedMemory} assigns its addresses).
 *
 * <p>Lifecycle ({@link State}): {@code LIVE} → {@code FREED} when {@link org.polygpu.backend.Backend#free} is
 * called while enqueued operations still use the buffer, then → {@code RELEASED} when the last of them completes;
 * {@code LIVE} →
 * {@code RELEASED} directly when nothing uses it. Only {@code LIVE} buffers may be passed to new operations; the
 * memory stays readable until {@code RELEASED} so that work enqueued before the free still runs.
 *
 * <p>Ownership: the buffer owns its {@link Arena} and closes it on release.
 *
 * @see org.polygpu.backend.Backend#free
 */
final class EmulatedBuffer implements DeviceBuffer {
    /** Where a buffer is in its life; transitions are listed in the class comment. */
    enum State { LIVE, FREED, RELEASED }

    private final Object owner;
    private final int device;
    private final long bytes;
    private final long address;
    private final String description;
    private final boolean constant;
    /** Where the pages of managed memory live; null for a device's own buffer. */
    private final PageResidency residency;
    private final Arena arena;
    private final MemorySegment segment;
    private State state = State.LIVE;
    private int pendingUses;
    /** Whether the contents were (partly) written by a sampled launch, so not computed; a whole-buffer copy resets. */
    private boolean notComputed;

    /**
     * @param address     the device address of the first byte
     * @param description what the memory is, for messages; {@code null} for a plain buffer
     * @param constant    whether kernels may only read it ({@code .const} module variables)
     */
    EmulatedBuffer(Object owner, int device, long bytes, long address, String description, boolean constant) {
        this(owner, device, bytes, address, description, constant, null);
    }

    /** Managed memory ({@link #MANAGED} device) whose pages {@code residency} tracks. */
    static EmulatedBuffer managed(Object owner, long bytes, long address, PageResidency residency) {
        return new EmulatedBuffer(owner, MANAGED, bytes, address, "managed buffer of " + bytes + " bytes", false,
                residency);
    }

    private EmulatedBuffer(Object owner, int device, long bytes, long address, String description, boolean constant,
                           PageResidency residency) {
        this.owner = owner;
        this.residency = residency;
        this.device = device;
        this.bytes = bytes;
        this.address = address;
        this.description = description;
        this.constant = constant;
        this.arena = Arena.ofShared();
        this.segment = arena.allocate(Math.max(bytes, 1), 256).asSlice(0, bytes);
    }

    @Override
    public int device() {
        return device;
    }

    @Override
    public long bytes() {
        return bytes;
    }

    Object owner() {
        return owner;
    }

    /** The device address of the first byte, as a kernel's pointer. */
    long address() {
        return address;
    }

    boolean constant() {
        return constant;
    }

    /** Whether this is managed memory, which every device addresses. */
    boolean isManaged() {
        return residency != null;
    }

    /** Where the pages of managed memory live; null for a device's own buffer. */
    PageResidency residency() {
        return residency;
    }

    /** Whether the buffer holds data of a sampled launch ({@code EmulatedExecution=sampled}), not computed. */
    boolean notComputed() {
        return notComputed;
    }

    /** Marks the contents as written by a sampled launch, or as computed again (by a copy of the whole buffer). */
    void notComputed(boolean value) {
        notComputed = value;
    }

    State state() {
        return state;
    }

    /** The buffer's memory, exactly {@link #bytes()} long. */
    MemorySegment segment() {
        if (state == State.RELEASED) {
            throw new BackendException(this + ": buffer was freed");
        }
        return segment;
    }

    /** @throws BackendException saying "buffer was freed" unless the buffer is live */
    void checkLive(String role) {
        if (state != State.LIVE) {
            throw new BackendException(role + " (" + this + "): buffer was freed");
        }
    }

    /** An enqueued operation will use the buffer until it calls {@link #release()}. */
    void retain() {
        pendingUses++;
    }

    /** An operation that used the buffer completed. */
    void release() {
        pendingUses--;
        if (pendingUses == 0 && state == State.FREED) {
            releaseMemory();
        }
    }

    /** Marks the buffer freed; its memory goes once no enqueued operation uses it. */
    void free() {
        checkLive("free");
        state = State.FREED;
        if (pendingUses == 0) {
            releaseMemory();
        }
    }

    /** Releases the memory whatever uses remain; for closing the backend after all work completed. */
    void releaseMemory() {
        if (state != State.RELEASED) {
            state = State.RELEASED;
            arena.close();
        }
    }

    @Override
    public String toString() {
        if (residency != null) {
            return description;
        }
        return description != null ? description + " on device " + device
                : "buffer of " + bytes + " bytes on device " + device;
    }
}
