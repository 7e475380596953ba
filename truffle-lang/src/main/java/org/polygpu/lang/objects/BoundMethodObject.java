package org.polygpu.lang.objects;

import org.polygpu.lang.PolygpuException;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A method read as a member ({@code a.copyFrom} in Python or JavaScript): executing it invokes the member on its
 * receiver, so {@code m = a.free; m()} and {@code a.free()} do the same. Immutable.
 */
@ExportLibrary(InteropLibrary.class)
public final class BoundMethodObject extends GuestObject {
    private final Object receiver;
    private final String name;

    public BoundMethodObject(Object receiver, String name) {
        this.receiver = receiver;
        this.name = name;
    }

    @ExportMessage
    boolean isExecutable() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    Object execute(Object[] arguments) {
        try {
            return InteropLibrary.getUncached(receiver).invokeMember(receiver, name, arguments);
        } catch (InteropException e) {
            throw PolygpuException.badValue(name + ": " + e.getMessage());
        }
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(boolean allowSideEffects) {
        return "method " + name + " of " + InteropLibrary.getUncached().toDisplayString(receiver, allowSideEffects);
    }
}
