package org.polygpu.mpi;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * An MPI call failed, or MPI cannot be used at all.
 *
 * <p>A failed call names the function, the error class and MPI's own text:
 * {@code MPI_Send failed: MPI_ERR_RANK (6): invalid rank}.
 */
public final class MpiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String function;
    private final int errorClass;

    private MpiException(String message, String function, int errorClass, Throwable cause) {
        super(message, cause);
        this.function = function;
        this.errorClass = errorClass;
    }

    /** {@code function} returned an error of class {@code errorClass}; {@code text} is MPI's message for it. */
    static MpiException callFailed(String function, int errorClass, String text) {
        String message = function + " failed: " + MpiErrorClass.name(errorClass) + " (" + errorClass + ")";
        if (!text.isBlank()) {
            message += ": " + text.strip();
        }
        return new MpiException(message, function, errorClass, null);
    }

    /** MPI cannot be used: the library is missing, is not Open MPI's, or lacks a function. */
    static MpiException unavailable(String message, Throwable cause) {
        return new MpiException(message, null, -1, cause);
    }

    /** The MPI function that failed, or empty when MPI itself could not be used. */
    public Optional<String> function() {
        return Optional.ofNullable(function);
    }

    /** The error class of the failure ({@code MPI_Error_class}), or empty when MPI could not be used. */
    public OptionalInt errorClass() {
        return function == null ? OptionalInt.empty() : OptionalInt.of(errorClass);
    }
}
