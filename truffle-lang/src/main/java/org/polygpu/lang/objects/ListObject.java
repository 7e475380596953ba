package org.polygpu.lang.objects;

import java.util.Arrays;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/** A read-only list of values: member names, the devices of {@code getdevices()}, a hash entry. Immutable. */
@ExportLibrary(InteropLibrary.class)
public final class ListObject extends GuestObject {
    private final Object[] values;

    public ListObject(Object... values) {
        this.values = values.clone();
    }

    @ExportMessage
    boolean hasArrayElements() {
        return true;
    }

    @ExportMessage
    long getArraySize() {
        return values.length;
    }

    @ExportMessage
    boolean isArrayElementReadable(long index) {
        return index >= 0 && index < values.length;
    }

    @ExportMessage
    Object readArrayElement(long index) throws InvalidArrayIndexException {
        if (!isArrayElementReadable(index)) {
            throw InvalidArrayIndexException.create(index);
        }
        return values[(int) index];
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(boolean allowSideEffects) {
        String[] shown = new String[values.length];
        for (int i = 0; i < values.length; i++) {
            shown[i] = String.valueOf(InteropLibrary.getUncached().toDisplayString(values[i], allowSideEffects));
        }
        return Arrays.toString(shown);
    }
}
