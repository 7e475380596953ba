package org.polygpu.emulator.ptx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * The device functions of the CUDA runtime that NVRTC's PTX declares {@code .extern} and the emulator provides:
 * {@code vprintf}, whose output is kept per CTA and printed when the kernel completes; {@code __assertfail},
 * which stops the kernel with a fault naming the assertion, its file, line and function; and {@code malloc} and
 * {@code free} on the device's {@link DeviceHeap} (null from {@code malloc} where the launch has none, a fault for
 * freeing what {@code malloc} did not return).
 *
 * <p>A call is {@link Op#DEVICE_CALL}: sub = which function, a = table index of its arguments' (local offset, bytes)
 * pairs, b = their count, d = the local offset of its return value or -1. Owned by one worker thread, like its
 * {@link Interpreter}; formatting allocates, but only {@code printf} itself does.
 */
final class DeviceCalls {
    static final int VPRINTF = 0;
    static final int ASSERTFAIL = 1;
    static final int MALLOC = 2;
    static final int FREE = 3;
    private static final String[] NAMES = {"vprintf", "__assertfail", "malloc", "free"};
    private static final int[] ARGUMENTS = {2, 5, 1, 1};

    private final MemoryContext memory;
    /** What the current CTA printed. */
    final StringBuilder output = new StringBuilder();

    DeviceCalls(MemoryContext memory) {
        this.memory = memory;
    }

    /** Which provided function {@code name} is, or -1. */
    static int provided(String name) {
        return switch (name) {
            case "vprintf" -> VPRINTF;
            case "__assertfail" -> ASSERTFAIL;
            case "malloc" -> MALLOC;
            case "free" -> FREE;
            default -> -1;
        };
    }

    /** The name of provided function {@code which}. */
    static String name(int which) {
        return NAMES[which];
    }

    /** How many arguments provided function {@code which} takes. */
    static int arguments(int which) {
        return ARGUMENTS[which];
    }

    void call(int[] code, int[] table, int at, int exec) {
        int which = code[at + Op.SUB];
        int arguments = code[at + Op.A];
        int result = code[at + Op.D];
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (which == MALLOC || which == FREE) {
                heap(which, argument(table, arguments, 0, l), result, l);
                continue;
            }
            if (which == ASSERTFAIL) {
                throw new MemoryFault(l, "assertion `" + string(argument(table, arguments, 0, l), l)
                        + "` failed at " + string(argument(table, arguments, 1, l), l) + ":"
                        + (int) argument(table, arguments, 2, l) + " in function '"
                        + string(argument(table, arguments, 3, l), l) + "'", "assert");
            }
            int count = printf(argument(table, arguments, 0, l), argument(table, arguments, 1, l), l);
            if (result >= 0) {
                memory.local.set(JAVA_INT_UNALIGNED, memory.localOf(l) + result, count);
            }
        }
    }

    private void heap(int which, long argument, int result, int lane) {
        DeviceHeap heap = memory.global.heap();
        if (which == MALLOC) {
            long pointer = heap == null ? 0 : heap.allocate(argument);
            if (result >= 0) {
                memory.local.set(JAVA_LONG_UNALIGNED, memory.localOf(lane) + result, pointer);
            }
        } else if (argument != 0 && (heap == null || !heap.free(argument))) {
            throw new MemoryFault(lane, "free(0x" + Long.toHexString(argument) + "): not a block that malloc "
                    + "returned, or freed already");
        }
    }

    /** Argument {@code k} of the call for lane {@code lane}, zero-extended from its size. */
    private long argument(int[] table, int arguments, int k, int lane) {
        long at = memory.localOf(lane) + table[arguments + 2 * k];
        return table[arguments + 2 * k + 1] == 8 ? memory.local.get(JAVA_LONG_UNALIGNED, at)
                : memory.local.get(JAVA_INT_UNALIGNED, at) & 0xFFFF_FFFFL;
    }

    /** Formats one {@code printf} into {@link #output}; returns the number of arguments it read. */
    private int printf(long format, long buffer, int lane) {
        int[] read = new int[2]; // arguments, then the offset in the buffer
        output.append(PrintfFormat.format(string(format, Integer.MAX_VALUE), new PrintfFormat.Arguments() {
            @Override
            public long next(int bytes) {
                int offset = (read[1] + bytes - 1) / bytes * bytes;
                read[0]++;
                read[1] = offset + bytes;
                long o = memory.resolve(Op.GENERIC, buffer + offset, bytes, lane, false);
                return bytes == 8 ? memory.segment.get(JAVA_LONG_UNALIGNED, o)
                        : memory.segment.get(JAVA_INT_UNALIGNED, o);
            }

            @Override
            public String string(long address, int limit) {
                return DeviceCalls.this.string(address, lane, limit);
            }
        }));
        return read[0];
    }

    private String string(long address, int lane) {
        return string(address, lane, Integer.MAX_VALUE);
    }

    /** The NUL-terminated string at a generic address, read byte by byte through memcheck. */
    private String string(long address, int lane, int limit) {
        StringBuilder s = new StringBuilder();
        for (long a = address; s.length() < limit; a++) {
            long o = memory.resolve(Op.GENERIC, a, 1, lane, false);
            byte b = memory.segment.get(JAVA_BYTE, o);
            if (b == 0) {
                break;
            }
            s.append((char) (b & 0xFF));
        }
        return s.toString();
    }
}
