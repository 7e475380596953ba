package org.polygpu.nvrtc;

import java.util.Optional;
import java.util.OptionalInt;
import org.polygpu.backend.BackendException;

/**
 * NVRTC could not be found or loaded, or one of its functions returned an error.
 *
 * <p>A failed call names the function and the C error name ({@code nvrtcCompileProgram failed:
 * NVRTC_ERROR_COMPILATION (6)}); a failed compilation also carries NVRTC's program log (each diagnostic as
 * {@code program(line): error: message}), both in {@link #log()} and at the end of the message.
 */
public final class NvrtcException extends BackendException {
    private static final long serialVersionUID = 1L;

    private final String function;
    private final int code;
    private final String log;

    private NvrtcException(String message, String function, int code, String log, Throwable cause) {
        super(message, cause);
        this.function = function;
        this.code = code;
        this.log = log;
    }

    /** A call to {@code function} returned {@code code}, whose C name is {@code errorName}; the log may be empty. */
    static NvrtcException callFailed(String function, int code, String errorName, String log) {
        String message = function + " failed: " + errorName + " (" + code + ")";
        String trimmed = log.strip();
        if (!trimmed.isEmpty()) {
            message += "\n" + trimmed;
        }
        return new NvrtcException(message, function, code, log, null);
    }

    /** A compilation failed for a reason said in {@code message}; the program log follows it. */
    static NvrtcException compilationFailed(String message, String function, int code, String log) {
        return new NvrtcException(message + "\n" + log.strip(), function, code, log, null);
    }

    /** NVRTC cannot be used at all: not found, not loadable, or missing a symbol. */
    static NvrtcException unavailable(String message) {
        return new NvrtcException(message, null, -1, "", null);
    }

    /** NVRTC cannot be used at all, because of {@code cause}. */
    static NvrtcException unavailable(String message, Throwable cause) {
        return new NvrtcException(message, null, -1, "", cause);
    }

    /** The NVRTC function that failed, or empty when the library itself could not be used. */
    public Optional<String> function() {
        return Optional.ofNullable(function);
    }

    /** The {@code nvrtcResult} the function returned, or empty when the library itself could not be used. */
    public OptionalInt code() {
        return function == null ? OptionalInt.empty() : OptionalInt.of(code);
    }

    /** The returned status, or empty when none was returned or the code is newer than {@link NvrtcStatus}. */
    public Optional<NvrtcStatus> status() {
        return function == null ? Optional.empty() : NvrtcStatus.of(code);
    }

    /** NVRTC's program log (compiler diagnostics), or the empty string when there is none. */
    public String log() {
        return log;
    }
}
