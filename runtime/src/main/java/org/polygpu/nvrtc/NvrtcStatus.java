package org.polygpu.nvrtc;

import java.util.Optional;

/** The {@code nvrtcResult} codes of NVRTC 12.x, with their C names; the ordinal is the C value. */
public enum NvrtcStatus {
    NVRTC_SUCCESS,
    NVRTC_ERROR_OUT_OF_MEMORY,
    NVRTC_ERROR_PROGRAM_CREATION_FAILURE,
    NVRTC_ERROR_INVALID_INPUT,
    NVRTC_ERROR_INVALID_PROGRAM,
    NVRTC_ERROR_INVALID_OPTION,
    NVRTC_ERROR_COMPILATION,
    NVRTC_ERROR_BUILTIN_OPERATION_FAILURE,
    NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION,
    NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION,
    NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID,
    NVRTC_ERROR_INTERNAL_ERROR,
    NVRTC_ERROR_TIME_FILE_WRITE_FAILED,
    NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED,
    NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED,
    NVRTC_ERROR_PCH_CREATE,
    NVRTC_ERROR_CANCELLED,
    NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED;

    private static final NvrtcStatus[] BY_CODE = values();

    /** The C value of this status. */
    public int code() {
        return ordinal();
    }

    /** The status with C value {@code code}, or empty for a code this enum does not know (a newer NVRTC). */
    public static Optional<NvrtcStatus> of(int code) {
        return code >= 0 && code < BY_CODE.length ? Optional.of(BY_CODE[code]) : Optional.empty();
    }
}
