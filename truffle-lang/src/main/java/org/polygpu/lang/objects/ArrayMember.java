package org.polygpu.lang.objects;

import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.builtins.BuiltinSignature;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

/**
 * The members of an array object, each with its signature (guest name and arity, checked before it runs) and its
 * action: {@code copyFrom(src[, n])} and {@code copyTo(dst[, n])} copy the first n elements (all by default) and
 * return the array, {@code free()} releases it and {@code isMemoryFreed} tells whether it was (read as a boolean or
 * called, {@link FreedFlagObject}), {@code offset(k)}
 * is a pointer k elements into it for a kernel argument (CUDA C's {@code x + k}). Each action is one call to
 * {@link HostTransfers} or the runtime.
 */
enum ArrayMember {
    COPY_FROM("copyFrom", 1, 2),
    COPY_TO("copyTo", 1, 2),
    FREE("free", 0, 0),
    IS_MEMORY_FREED("isMemoryFreed", 0, 0),
    OFFSET("offset", 1, 1);

    private static final ArrayMember[] ALL = values();
    private static final Object[] NAMES = names(ALL);

    private final BuiltinSignature signature;

    ArrayMember(String guestName, int minArgs, int maxArgs) {
        this.signature = new BuiltinSignature(guestName, minArgs, maxArgs);
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

    /** The guest names of all members, in declaration order. */
    static ListObject names() {
        return new ListObject(NAMES);
    }

    private static Object[] names(ArrayMember[] members) {
        Object[] names = new Object[members.length];
        for (int i = 0; i < members.length; i++) {
            names[i] = members[i].guestName();
        }
        return names;
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
                HostTransfers.copyFrom(self.runtime, array, args[0], count(array, args));
                yield self;
            }
            case COPY_TO -> {
                HostTransfers.copyTo(self.runtime, array, args[0], count(array, args));
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

    /** The {@code n} of a copy: all elements when absent, else a count the array holds. */
    private long count(DeviceArray array, Object[] args) {
        ArrayObjects.checkLive(array);
        if (args.length < 2) {
            return array.elementCount();
        }
        long n = GuestValues.integer(args[1], guestName(), "n");
        if (n < 0 || n > array.elementCount()) {
            throw PolygpuException.wrongType(guestName(), "n", "an element count in 0.." + array.elementCount(),
                    Long.toString(n));
        }
        return n;
    }
}
