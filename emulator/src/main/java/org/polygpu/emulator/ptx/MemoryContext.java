package org.polygpu.emulator.ptx;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The memories one worker's current CTA can address, and the bounds checks (memcheck) that map an address of a
 * state space to a segment and an offset: global and const through {@link GlobalMemory}, shared memory of the CTA,
 * local memory of the thread, the kernel parameter buffer, and generic addresses by window. Global addresses go
 * through a cache of the last two regions, so that a kernel reading one array and writing another does not search
 * the allocations at every access. Also accumulates the memory counters, and for the regions the launch tracks
 * (managed memory) the span of addresses it touched, handed to the launch's {@link TouchedRanges} at the end.
 *
 * <p>Owned by one worker thread.
 */
final class MemoryContext {
    final GlobalMemory global;
    final MemorySegment params;
    final long paramBytes;
    MemorySegment shared;
    long sharedBytes;
    MemorySegment local;
    long localBytes;
    /** Offset of the current warp's first thread in {@link #local}. */
    long localBase;
    /** The segment the last {@link #resolve} mapped to. */
    MemorySegment segment;
    private long cachedStart = 1;
    private long cachedEnd;
    private int cachedRegion;
    /** The region mapped before the cached one, if any (start above end when none). */
    private long otherStart = 1;
    private long otherEnd;
    private int otherRegion;
    private MemorySegment cachedSegment;
    private boolean cachedReadOnly;
    private String cachedRefusal;
    /** Whether the cached region's touches are recorded (managed memory). */
    private boolean cachedTracked;
    /** Per region, the lowest and one past the highest address touched, while tracked; null when none is. */
    private long[] touchedLo;
    private long[] touchedHi;
    long globalSectors;
    /** Distinct 128-byte lines of global accesses, per warp access: the L1's wavefronts. */
    long globalLines;
    /** The distinct sectors the current warp access touched most recently ({@link #newSector}). */
    private final long[] recentSectors = new long[RECENT_SECTORS];
    private int recentCount;
    private int recentNext;
    private final long[] recentLines = new long[RECENT_SECTORS];
    private int recentLineCount;
    private int recentLineNext;
    long sharedAccesses;
    /** Shared-memory wavefronts: accesses times their bank-conflict degree ({@link SharedBanks}). */
    long sharedWavefronts;
    long atomics;
    /** The address of the CTA's first global atomic ({@code -1} before it), and the atomics on it in the CTA. */
    long hotAddress = -1;
    long hotCount;
    final SharedBanks banks = new SharedBanks();
    /** Per instruction, the bank-conflict degree of its shared accesses in the current CTA (0: not yet seen). */
    int[] sharedDegree = new int[0];

    /** How many of a warp access's distinct sectors {@link #newSector} remembers (a power of 2). */
    static final int RECENT_SECTORS = 8;

    /** A warp's access starts: no sector of it is known yet. */
    void startAccess() {
        recentCount = 0;
        recentLineCount = 0;
    }

    /**
     * Counts sectors {@code first..last} of a lane's access, but {@code previous} and those seen already, and the
     * 128-byte lines they are in likewise.
     */
    void countSectors(long first, long last, long previous) {
        for (long sector = first; sector <= last; sector++) {
            if (sector != previous && newSector(sector)) {
                globalSectors++;
                if ((previous < 0 || sector >>> 2 != previous >>> 2) && newLine(sector >>> 2)) {
                    globalLines++;
                }
            }
            previous = sector;
        }
    }

    /** {@link #newSector} for the access's 128-byte lines. */
    private boolean newLine(long line) {
        for (int i = 0; i < recentLineCount; i++) {
            if (recentLines[i] == line) {
                return false;
            }
        }
        recentLines[recentLineNext] = line;
        recentLineNext = (recentLineNext + 1) & (RECENT_SECTORS - 1);
        recentLineCount = Math.min(RECENT_SECTORS, recentLineCount + 1);
        return true;
    }

    /**
     * Whether {@code sector} is new to the current warp access, remembering it: the access's last
     * {@value #RECENT_SECTORS} distinct sectors are compared, which finds every repeat of coalesced, strided,
     * broadcast and periodic patterns (lanes cycling over a few rows) and over-counts only lanes scattered over more
     * sectors than that.
     */
    boolean newSector(long sector) {
        for (int i = 0; i < recentCount; i++) {
            if (recentSectors[i] == sector) {
                return false;
            }
        }
        recentSectors[recentNext] = sector;
        recentNext = (recentNext + 1) & (RECENT_SECTORS - 1);
        recentCount = Math.min(RECENT_SECTORS, recentCount + 1);
        return true;
    }

    MemoryContext(GlobalMemory global, MemorySegment params) {
        this.global = global;
        this.params = params;
        this.paramBytes = params.byteSize();
    }

    /**
     * Maps an access of {@code size} bytes at {@code address} in {@code space} for {@code lane}: sets
     * {@link #segment} and returns the offset in it.
     *
     * @throws MemoryFault if the access is misaligned, out of bounds, or a store to read-only memory
     */
    long resolve(int space, long address, int size, int lane, boolean write) {
        if ((address & (size - 1)) != 0) {
            throw fault(space, address, size, lane, write, "the address is not aligned to " + size + " bytes");
        }
        return switch (space) {
            case Op.GLOBAL, Op.CONST -> global(space, address, size, lane, write);
            case Op.SHARED -> shared(address, size, lane, write, space);
            case Op.LOCAL -> local(address, size, lane, write, space);
            case Op.KERNEL_PARAM -> {
                if (address < 0 || address > paramBytes - size) {
                    throw fault(space, address, size, lane, write, "the kernel parameters are " + paramBytes
                            + " bytes");
                }
                segment = params;
                yield address;
            }
            default -> generic(address, size, lane, write);
        };
    }

    /** What {@link #range} returns when the accesses are not one linear mapping known to be valid. */
    static final long NO_RANGE = Long.MIN_VALUE;

    /**
     * The warp-wide check: if every access of {@code size} bytes at addresses from {@code lo} to {@code hi} (all
     * aligned) in {@code space} maps into one segment at {@code address - base} and would pass {@link #resolve},
     * sets {@link #segment} and returns {@code base}; else {@link #NO_RANGE}, changing nothing, and the caller
     * resolves lane by lane (which finds the faulting lane, and fills the region cache). Local memory, whose
     * mapping depends on the lane, is never one range.
     */
    long range(int space, long lo, long hi, int size, boolean write) {
        switch (space) {
            case Op.SHARED -> {
                if (lo < 0 || hi > sharedBytes - size) {
                    return NO_RANGE;
                }
                segment = shared;
                return 0;
            }
            case Op.GLOBAL, Op.CONST, Op.GENERIC -> {
                if (space == Op.GENERIC && lo >= Specials.SHARED_WINDOW
                        && hi < Specials.SHARED_WINDOW + Specials.WINDOW_SIZE) {
                    if (lo - Specials.SHARED_WINDOW > sharedBytes - size || hi - Specials.SHARED_WINDOW
                            > sharedBytes - size) {
                        return NO_RANGE;
                    }
                    segment = shared;
                    return Specials.SHARED_WINDOW;
                }
                if (lo < cachedStart || hi > cachedEnd - size) {
                    if (lo < otherStart || hi > otherEnd - size) {
                        return NO_RANGE;
                    }
                    swapCached();
                }
                if ((write && cachedRefusal != null) || (space == Op.CONST && !cachedReadOnly)) {
                    return NO_RANGE;
                }
                if (cachedTracked) {
                    touch(lo, hi + size);
                }
                segment = cachedSegment;
                return cachedStart;
            }
            default -> {
                return NO_RANGE;
            }
        }
    }

    private long generic(long address, int size, int lane, boolean write) {
        if (address >= Specials.SHARED_WINDOW && address < Specials.SHARED_WINDOW + Specials.WINDOW_SIZE) {
            return shared(address - Specials.SHARED_WINDOW, size, lane, write, Op.GENERIC);
        }
        if (address >= Specials.LOCAL_WINDOW && address < Specials.LOCAL_WINDOW + Specials.WINDOW_SIZE) {
            return local(address - Specials.LOCAL_WINDOW, size, lane, write, Op.GENERIC);
        }
        return global(Op.GENERIC, address, size, lane, write);
    }

    private long global(int space, long address, int size, int lane, boolean write) {
        if (address < cachedStart || address > cachedEnd - size) {
            if (address >= otherStart && address <= otherEnd - size) {
                swapCached();
            } else {
                int region = global.find(address);
                if (region < 0 || address > global.end(region) - size) {
                    throw fault(space, address, size, lane, write, global.explain(address, size));
                }
                otherStart = cachedStart;
                otherEnd = cachedEnd;
                otherRegion = cachedRegion;
                cachedStart = global.start(region);
                cachedEnd = global.end(region);
                cachedRegion = region;
                cachedSegment = global.segment(region);
                cachedReadOnly = global.readOnly(region);
                cachedRefusal = global.storeRefusal(region);
                cachedTracked = global.tracked(region);
            }
        }
        if (cachedTracked) {
            touch(address, address + size);
        }
        if (write && cachedRefusal != null) {
            throw fault(space, address, size, lane, true, cachedRefusal);
        }
        if (space == Op.CONST && !cachedReadOnly) {
            throw fault(space, address, size, lane, false, "it is not in a .const variable");
        }
        segment = cachedSegment;
        return address - cachedStart;
    }

    /** Makes the second cached region the first: kernels that read one array and write another alternate. */
    private void swapCached() {
        long start = otherStart;
        long end = otherEnd;
        int region = otherRegion;
        otherStart = cachedStart;
        otherEnd = cachedEnd;
        otherRegion = cachedRegion;
        cachedStart = start;
        cachedEnd = end;
        cachedRegion = region;
        cachedSegment = global.segment(region);
        cachedReadOnly = global.readOnly(region);
        cachedRefusal = global.storeRefusal(region);
        cachedTracked = global.tracked(region);
    }

    /** Widens the cached region's touched span to include addresses {@code lo..hi-1}. */
    private void touch(long lo, long hi) {
        if (touchedLo == null) {
            touchedLo = new long[cachedRegion + 1];
            touchedHi = new long[cachedRegion + 1];
        } else if (cachedRegion >= touchedLo.length) {
            touchedLo = Arrays.copyOf(touchedLo, cachedRegion + 1);
            touchedHi = Arrays.copyOf(touchedHi, cachedRegion + 1);
        }
        if (touchedHi[cachedRegion] == 0) {
            touchedLo[cachedRegion] = lo;
            touchedHi[cachedRegion] = hi;
        } else {
            touchedLo[cachedRegion] = Math.min(touchedLo[cachedRegion], lo);
            touchedHi[cachedRegion] = Math.max(touchedHi[cachedRegion], hi);
        }
    }

    /** Hands the spans this worker touched in tracked regions to the launch's {@link TouchedRanges}. */
    void flushTouches() {
        if (touchedLo == null) {
            return;
        }
        for (int r = 0; r < touchedLo.length; r++) {
            if (touchedHi[r] != 0) {
                global.touched(r, touchedLo[r], touchedHi[r]);
            }
        }
        touchedLo = null;
        touchedHi = null;
    }

    private long shared(long offset, int size, int lane, boolean write, int space) {
        if (offset < 0 || offset > sharedBytes - size) {
            throw fault(space, space == Op.GENERIC ? offset + Specials.SHARED_WINDOW : offset, size, lane, write,
                    "the block has " + sharedBytes + " bytes of shared memory (offset " + offset + ")");
        }
        segment = shared;
        return offset;
    }

    private long local(long offset, int size, int lane, boolean write, int space) {
        if (offset < 0 || offset > localBytes - size) {
            throw fault(space, space == Op.GENERIC ? offset + Specials.LOCAL_WINDOW : offset, size, lane, write,
                    "each thread has " + localBytes + " bytes of local memory (offset " + offset + ")");
        }
        segment = local;
        return localBase + lane * localBytes + offset;
    }

    /** The offset of {@code lane}'s local memory in {@link #local}. */
    long localOf(int lane) {
        return localBase + lane * localBytes;
    }

    private static MemoryFault fault(int space, long address, int size, int lane, boolean write, String why) {
        return MemoryFault.invalid(lane, write ? "write" : "read", space, address, size, why);
    }
}
