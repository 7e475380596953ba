package org.polygpu.lang.objects;

import org.polygpu.lang.PolygpuLanguage;

import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/** The result of functions that return nothing ({@code free()}, {@code cudaDeviceSynchronize()}): a null. */
@ExportLibrary(InteropLibrary.class)
public final class NullObject implements TruffleObject {
    public static final NullObject INSTANCE = new NullObject();

    private NullObject() {
    }

    @ExportMessage
    boolean isNull() {
        return true;
    }

    @ExportMessage
    boolean hasLanguage() {
        return true;
    }

    @ExportMessage
    Class<? extends TruffleLanguage<?>> getLanguage() {
        return PolygpuLanguage.class;
    }

    @ExportMessage
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "null";
    }
}
