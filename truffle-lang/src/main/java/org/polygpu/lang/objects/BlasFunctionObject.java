package org.polygpu.lang.objects;

import org.polygpu.blas.BlasFunction;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A BLAS function of the {@code BLAS} namespace ({@code BLAS::cublasSaxpy}) as a guest value: executable with cuBLAS's
 * arguments without the handle, device arrays for the vectors, matrices, scalars ({@code alpha}, {@code beta}) and
 * results. A call is a computation of the DAG on a device, like a kernel launch, and returns at once with cuBLAS's
 * status, {@code 0} ({@code CUBLAS_STATUS_SUCCESS}); a bad argument throws instead. Immutable.
 */
@ExportLibrary(InteropLibrary.class)
public final class BlasFunctionObject extends GuestObject {
    private static final int CUBLAS_STATUS_SUCCESS = 0;

    private final PolygpuRuntime runtime;
    private final BlasFunction function;

    public BlasFunctionObject(PolygpuRuntime runtime, BlasFunction function) {
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
        runtime.launchLibrary(function, function.parameters(), bound);
        return CUBLAS_STATUS_SUCCESS;
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(boolean allowSideEffects) {
        return "function BLAS::" + function.name() + "(" + function.parameters().stream().map(Object::toString)
                .collect(java.util.stream.Collectors.joining(", ")) + ")";
    }
}
