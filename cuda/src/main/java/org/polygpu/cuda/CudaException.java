package org.polygpu.cuda;

import java.util.Optional;
import java.util.OptionalInt;
import org.polygpu.backend.BackendException;

/**
 * A CUDA driver call failed, or the driver cannot be used at all.
 *
 * <p>A failed call names the function and the C error, {@code cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2)},
 * optionally followed by what it means for the caller (a JIT log, a hint about the driver version).
 */
public final class CudaException extends BackendException {
    private static final long serialVersionUID = 1L;

    private final String function;
    private final int code;

    private CudaException(String message, String function, int code, Throwable cause) {
        super(message, cause);
        this.function = function;
        this.code = code;
    }

    /** {@code function} returned {@code code}, whose C name is {@code errorName}; {@code detail} may be empty. */
    static CudaException callFailed(String function, int code, String errorName, String detail) {
        String message = function + " failed: " + errorName + " (" + code + ")";
        if (!detail.isBlank()) {
            message += ": " + detail.strip();
        }
        return new CudaException(message, function, code, null);
    }

    /** The driver cannot be used: the library is missing or lacks a function polygpu needs. */
    static CudaException unavailable(String message, Throwable cause) {
        return new CudaException(message, null, -1, cause);
    }

    /** The same failure with {@code detail} appended, saying what the call was doing. */
    CudaException withDetail(String detail) {
        CudaException e = new CudaException(getMessage() + " (" + detail + ")", function, code, getCause());
        e.setStackTrace(getStackTrace());
        return e;
    }

    /** The driver function that failed, or empty when the driver itself could not be used. */
    public Optional<String> function() {
        return Optional.ofNullable(function);
    }

    /** The {@code CUresult} the function returned, or empty when the driver itself could not be used. */
    public OptionalInt code() {
        return function == null ? OptionalInt.empty() : OptionalInt.of(code);
    }

    /** The returned result, or empty when none was returned or {@link CuResult} does not list it. */
    public Optional<CuResult> result() {
        return function == null ? Optional.empty() : CuResult.of(code);
    }
}
