package org.polygpu.emulator.ptx;

/**
 * An invalid access found while executing an instruction: out of bounds, misaligned, a store to read-only memory,
 * a trap, or a failed {@code assert}. Thrown by the memory operations with the lane; the interpreter adds the pc and
 * the CTA runner turns it into a {@link org.polygpu.backend.BackendException} naming kernel, block, thread and PTX
 * line.
 */
final class MemoryFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int lane;
    /** What found the fault, as the report names it: {@code memcheck} or {@code assert}. */
    final String kind;
    int pc = -1;

    MemoryFault(int lane, String message) {
        this(lane, message, "memcheck");
    }

    MemoryFault(int lane, String message, String kind) {
        super(message, null, false, false);
        this.lane = lane;
        this.kind = kind;
    }

    static MemoryFault invalid(int lane, String access, int space, long address, int size, String why) {
        return new MemoryFault(lane, "invalid " + Op.spaceName(space) + " " + access + " of " + size
                + " bytes at address 0x" + Long.toHexString(address) + ": " + why);
    }
}
