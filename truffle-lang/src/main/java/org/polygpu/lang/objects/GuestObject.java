package org.polygpu.lang.objects;

import org.polygpu.lang.PolygpuLanguage;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * The base of every polygpu guest object: it tells interop that the object belongs to polygpu. Subclasses inherit
 * these exports (each subclass's generated export extends this class's) and export their own messages under their
 * own {@code @ExportLibrary}. Interop requires {@code toDisplayString} of an object that has a language, so it is
 * declared here abstract: the annotation processor refuses a subclass that does not export it. {@code toString}
 * is the display string, so no message shows a Java identity.
 */
@ExportLibrary(InteropLibrary.class)
abstract class GuestObject implements TruffleObject {
    @ExportMessage
    final boolean hasLanguage() {
        return true;
    }

    @ExportMessage
    final Class<? extends TruffleLanguage<?>> getLanguage() {
        return PolygpuLanguage.class;
    }

    @ExportMessage
    abstract Object toDisplayString(boolean allowSideEffects);

    /** The display string, so that a guest object concatenated into a message reads as users see it. */
    @Override
    @TruffleBoundary
    public final String toString() {
        return String.valueOf(toDisplayString(false));
    }
}
