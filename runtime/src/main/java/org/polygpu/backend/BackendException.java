package org.polygpu.backend;

/** A backend operation failed; the message names the operation and the cause (a CUDA error name, a bound). */
public class BackendException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BackendException(String message) {
        super(message);
    }

    public BackendException(String message, Throwable cause) {
        super(message, cause);
    }
}
