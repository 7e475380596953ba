package org.polygpu.lang.objects;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/** The result of functions that return nothing ({@code free()}, {@code cudaDeviceSynchronize()}): a null. */
@ExportLibrary(InteropLibrary.class)
public final class NullObject extends GuestObject {
    public static final NullObject INSTANCE = new NullObject();

    private NullObject() {
    }

    @ExportMessage
    boolean isNull() {
        return true;
    }

    @ExportMessage
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "null";
    }
}
