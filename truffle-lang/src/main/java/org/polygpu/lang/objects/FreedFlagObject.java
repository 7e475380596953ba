package org.polygpu.lang.objects;

import org.polygpu.array.DeviceArray;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * The member {@code isMemoryFreed} read from an array: a boolean, whether the array was freed when it was read, as
 * GrCUDA programs test it ({@code if x.isMemoryFreed:}), and also a method, so {@code x.isMemoryFreed()} tells
 * whether the array is freed now. Immutable.
 */
@ExportLibrary(InteropLibrary.class)
final class FreedFlagObject extends GuestObject {
    private final DeviceArray array;
    private final boolean freed;

    FreedFlagObject(DeviceArray array) {
        this.array = array;
        this.freed = array.isFreed();
    }

    @ExportMessage
    boolean isBoolean() {
        return true;
    }

    @ExportMessage
    boolean asBoolean() {
        return freed;
    }

    @ExportMessage
    boolean isExecutable() {
        return true;
    }

    @ExportMessage
    Object execute(Object[] arguments) {
        ArrayMember.IS_MEMORY_FREED.signature().checkArity(arguments);
        return array.isFreed();
    }

    @ExportMessage
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return Boolean.toString(freed);
    }
}
