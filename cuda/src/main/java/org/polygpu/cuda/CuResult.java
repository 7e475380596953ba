package org.polygpu.cuda;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The common {@code CUresult} codes of the CUDA driver API with their C names; {@link #code()} is the C value.
 *
 * <p>The driver's own {@code cuGetErrorName} is asked first when an error is reported (it knows codes newer than
 * this enum); the enum names the code when the driver cannot, and lets callers test for a specific error.
 */
public enum CuResult {
    CUDA_SUCCESS(0),
    CUDA_ERROR_INVALID_VALUE(1),
    CUDA_ERROR_OUT_OF_MEMORY(2),
    CUDA_ERROR_NOT_INITIALIZED(3),
    CUDA_ERROR_DEINITIALIZED(4),
    CUDA_ERROR_PROFILER_DISABLED(5),
    CUDA_ERROR_STUB_LIBRARY(34),
    CUDA_ERROR_DEVICE_UNAVAILABLE(46),
    CUDA_ERROR_NO_DEVICE(100),
    CUDA_ERROR_INVALID_DEVICE(101),
    CUDA_ERROR_DEVICE_NOT_LICENSED(102),
    CUDA_ERROR_INVALID_IMAGE(200),
    CUDA_ERROR_INVALID_CONTEXT(201),
    CUDA_ERROR_CONTEXT_ALREADY_CURRENT(202),
    CUDA_ERROR_MAP_FAILED(205),
    CUDA_ERROR_NO_BINARY_FOR_GPU(209),
    CUDA_ERROR_ECC_UNCORRECTABLE(214),
    CUDA_ERROR_CONTEXT_ALREADY_IN_USE(216),
    CUDA_ERROR_PEER_ACCESS_UNSUPPORTED(217),
    CUDA_ERROR_INVALID_PTX(218),
    CUDA_ERROR_JIT_COMPILER_NOT_FOUND(221),
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION(222),
    CUDA_ERROR_JIT_COMPILATION_DISABLED(223),
    CUDA_ERROR_INVALID_SOURCE(300),
    CUDA_ERROR_FILE_NOT_FOUND(301),
    CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND(302),
    CUDA_ERROR_SHARED_OBJECT_INIT_FAILED(303),
    CUDA_ERROR_OPERATING_SYSTEM(304),
    CUDA_ERROR_INVALID_HANDLE(400),
    CUDA_ERROR_ILLEGAL_STATE(401),
    CUDA_ERROR_NOT_FOUND(500),
    CUDA_ERROR_NOT_READY(600),
    CUDA_ERROR_ILLEGAL_ADDRESS(700),
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES(701),
    CUDA_ERROR_LAUNCH_TIMEOUT(702),
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED(704),
    CUDA_ERROR_PEER_ACCESS_NOT_ENABLED(705),
    CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE(708),
    CUDA_ERROR_CONTEXT_IS_DESTROYED(709),
    CUDA_ERROR_ASSERT(710),
    CUDA_ERROR_TOO_MANY_PEERS(711),
    CUDA_ERROR_HARDWARE_STACK_ERROR(714),
    CUDA_ERROR_ILLEGAL_INSTRUCTION(715),
    CUDA_ERROR_MISALIGNED_ADDRESS(716),
    CUDA_ERROR_INVALID_ADDRESS_SPACE(717),
    CUDA_ERROR_INVALID_PC(718),
    CUDA_ERROR_LAUNCH_FAILED(719),
    CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE(720),
    CUDA_ERROR_NOT_PERMITTED(800),
    CUDA_ERROR_NOT_SUPPORTED(801),
    CUDA_ERROR_SYSTEM_NOT_READY(802),
    CUDA_ERROR_SYSTEM_DRIVER_MISMATCH(803),
    CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE(804),
    CUDA_ERROR_TIMEOUT(909),
    CUDA_ERROR_UNKNOWN(999);

    private static final Map<Integer, CuResult> BY_CODE = new HashMap<>();

    static {
        for (CuResult r : values()) {
            BY_CODE.put(r.code, r);
        }
    }

    private final int code;

    CuResult(int code) {
        this.code = code;
    }

    /** The C value of this result. */
    public int code() {
        return code;
    }

    /** The result with C value {@code code}, or empty for a code this enum does not list. */
    public static Optional<CuResult> of(int code) {
        return Optional.ofNullable(BY_CODE.get(code));
    }
}
