package org.polygpu.lang.objects;

import org.polygpu.array.ArrayOffset;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A pointer into a device array at an element offset, made by {@code x.offset(k)}: passed to a kernel, it is CUDA
 * C's {@code x + k}. It has no elements or members of its own; a launch schedules it as the whole array. Immutable.
 */
@ExportLibrary(InteropLibrary.class)
final class ArrayOffsetObject extends GuestObject {
    final ArrayOffset offset;

    ArrayOffsetObject(ArrayOffset offset) {
        this.offset = offset;
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "offset " + offset.elements() + " into " + offset.array();
    }
}
