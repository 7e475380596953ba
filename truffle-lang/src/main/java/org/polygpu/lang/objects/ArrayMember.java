package org.polygpu.lang.objects;

import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.builtins.BuiltinSignature;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

/**
 * The members of an array object, each with its signature (guest name and arity, checked before it runs) and its
 * action: {@code copyFrom(src[, n])} and {@code copyTo(dst[, n])} copy the first n elements (all by default) and
 * return the array (the other side is a device array or row, a host array or buffer, or a native address), the only
 * members a view such as a row {@code m[i]} has too, acting on its elements; {@code free()} releases it and
 * {@code isMemoryFreed} tells whether it was (read as a boolean or called, {@link FreedFlagObject}), {@code offset(k)}
 * is a pointer k elements into it for a kernel argument (CUDA C's {@code x + k}). Each action is one call to
 * {@link HostTransfers} or the runtime.
 */
enum ArrayMember {
    COPY_FROM("copyFrom", 1, 2, true, "copyFrom(src[, n])", "Copies the first n elements (all by default) from "
            + "src: another device array or row, a Java primitive array, MemorySegment or ByteBuffer, a Python "
            + "array.array, bytes, bytearray, memoryview or numpy array, a JavaScript typed array or ArrayBuffer (each "
            + "one memory copy), any list (element by element), or a native address with n; returns the array."),
    COPY_TO("copyTo", 1, 2, true, "copyTo(dst[, n])", "Copies the first n elements (all by default) into dst, "
            + "which takes the same kinds as copyFrom (a read-only buffer is refused; a shorter growable list "
            + "grows); returns the array."),
    FREE("free", 0, 0, false, "free()", "Waits for the work that uses the array, then releases it on every device "
            + "and the host; using it afterwards is an error."),
    IS_MEMORY_FREED("isMemoryFreed", 0, 0, false, "isMemoryFreed", "Whether free() was called: read as a boolean "
            + "or called as a method."),
    OFFSET("offset", 1, 1, false, "offset(k)", "A pointer k elements into the array (0 <= k <= length) for a "
            + "kernel argument, CUDA C's x + k; the scheduler treats it as the whole array.");

    private static final ArrayMember[] ALL = values();
    private static final Object[] NAMES = names(ALL, false);
    private static final Object[] VIEW_NAMES = names(ALL, true);

    private final BuiltinSignature signature;
    private final boolean onViews;

    ArrayMember(String guestName, int minArgs, int maxArgs, boolean onViews, String usage, String help) {
        this.signature = new BuiltinSignature(guestName, minArgs, maxArgs, usage, help);
        this.onViews = onViews;
    }

    /** Whether a view of part of an array that a copy can cover ({@code m[i]}) has this member too. */
    boolean onViews() {
        return onViews;
    }

    /** The member called {@code name}, or null. */
    @TruffleBoundary
    static ArrayMember of(String name) {
        for (ArrayMember m : ALL) {
            if (m.guestName().equals(name)) {
                return m;
            }
        }
        return null;
    }

    /** The guest names of the members of a whole array, or of a view, in declaration order. */
    static ListObject names(boolean view) {
        return new ListObject(view ? VIEW_NAMES : NAMES);
    }

    private static Object[] names(ArrayMember[] members, boolean view) {
        return java.util.Arrays.stream(members).filter(m -> !view || m.onViews).map(ArrayMember::guestName)
                .toArray();
    }

    String guestName() {
        return signature.name();
    }

    BuiltinSignature signature() {
        return signature;
    }

    /** Checks the number of arguments, then runs the member on {@code self}'s array. */
    @TruffleBoundary
    Object invoke(ArrayObject self, Object[] args) {
        signature.checkArity(args);
        DeviceArray array = self.array;
        return switch (this) {
            case COPY_FROM -> {
                ArrayRegion region = self.region();
                HostTransfers.copyFrom(self.runtime, region, args[0], count(region, args));
                yield self;
            }
            case COPY_TO -> {
                ArrayRegion region = self.region();
                HostTransfers.copyTo(self.runtime, region, args[0], count(region, args));
                yield self;
            }
            case FREE -> {
                self.runtime.free(array);
                yield NullObject.INSTANCE;
            }
            case IS_MEMORY_FREED -> array.isFreed();
            case OFFSET -> offset(array, args[0]);
        };
    }

    private ArrayOffsetObject offset(DeviceArray array, Object k) {
        ArrayObjects.checkLive(array);
        long elements = GuestValues.integer(k, guestName(), "k");
        if (elements < 0 || elements > array.elementCount()) {
            throw PolygpuException.wrongType(guestName(), "k", "an offset in 0.." + array.elementCount(),
                    Long.toString(elements));
        }
        return new ArrayOffsetObject(new ArrayOffset(array, elements));
    }

    /** The {@code n} of a copy: all elements of the region when absent, else a count the region holds. */
    private long count(ArrayRegion region, Object[] args) {
        ArrayObjects.checkLive(region.array());
        if (args.length < 2) {
            return region.count();
        }
        long n = GuestValues.integer(args[1], guestName(), "n");
        if (n < 0 || n > region.count()) {
            throw PolygpuException.wrongType(guestName(), "n", "an element count in 0.." + region.count(),
                    Long.toString(n));
        }
        return n;
    }
}
