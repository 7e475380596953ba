package org.polygpu.lang.objects;

import org.polygpu.array.DeviceArray;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;

/**
 * The members every array object has: {@code copyFrom(src[, n])} and {@code copyTo(dst[, n])} (the first n
 * elements, all by default; return the array), {@code free()} and {@code isMemoryFreed()}.
 */
final class ArrayMembers {
    private static final String[] NAMES = {"copyFrom", "copyTo", "free", "isMemoryFreed"};

    private ArrayMembers() {
    }

    static ListObject names() {
        return new ListObject((Object[]) NAMES);
    }

    static boolean exists(String member) {
        return switch (member) {
            case "copyFrom", "copyTo", "free", "isMemoryFreed" -> true;
            default -> false;
        };
    }

    @TruffleBoundary
    static Object invoke(Object self, PolygpuRuntime runtime, DeviceArray array, String member, Object[] args)
            throws UnknownIdentifierException {
        switch (member) {
            case "copyFrom" -> {
                GuestValues.checkArity(member, args, 1, 2);
                HostTransfers.copyFrom(runtime, array, args[0], count(array, member, args));
                return self;
            }
            case "copyTo" -> {
                GuestValues.checkArity(member, args, 1, 2);
                HostTransfers.copyTo(runtime, array, args[0], count(array, member, args));
                return self;
            }
            case "free" -> {
                GuestValues.checkArity(member, args, 0, 0);
                runtime.free(array);
                return NullObject.INSTANCE;
            }
            case "isMemoryFreed" -> {
                GuestValues.checkArity(member, args, 0, 0);
                return array.isFreed();
            }
            default -> throw UnknownIdentifierException.create(member);
        }
    }

    private static long count(DeviceArray array, String member, Object[] args) {
        ArrayObjects.checkLive(array);
        if (args.length < 2) {
            return array.elementCount();
        }
        long n = GuestValues.integer(args[1], member, "n");
        if (n < 0 || n > array.elementCount()) {
            throw PolygpuException.wrongType(member, "n", "an element count in 0.." + array.elementCount(),
                    Long.toString(n));
        }
        return n;
    }
}
