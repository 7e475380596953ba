package org.polygpu.lang.objects;

import org.polygpu.hostfn.HostFunction;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A host function of a shared library ({@code bind}, {@code bindall}) as a guest value: executable with one argument
 * per parameter, a device array for each pointer. A call is a host-side computation of the DAG: it waits for what its
 * arrays depend on and gets pointers to their up-to-date host copies. Returns the function's result, or
 * {@code NONE} for {@code void}. Immutable.
 */
@ExportLibrary(InteropLibrary.class)
public final class HostFunctionObject extends GuestObject {
    private final PolygpuRuntime runtime;
    private final HostFunction function;

    public HostFunctionObject(PolygpuRuntime runtime, HostFunction function) {
        this.runtime = runtime;
        this.function = function;
    }

    @ExportMessage
    boolean isExecutable() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    Object execute(Object[] arguments) {
        Object[] bound = new Object[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            Object pointer = ArrayObjects.unwrapPointer(arguments[i]);
            bound[i] = pointer != null ? pointer : GuestValues.toHost(arguments[i]);
        }
        Object result = runtime.callHost(function, bound);
        return result == null ? NullObject.INSTANCE : result;
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(boolean allowSideEffects) {
        return "host function " + function.name() + " (" + function.symbol() + ")";
    }
}
