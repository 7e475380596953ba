package org.polygpu.emulator.ptx;

import java.util.List;

/**
 * What a launch needs to know of a kernel ({@code .entry}) of a parsed module.
 *
 * @param name               the entry's name (mangled unless declared {@code extern "C"})
 * @param params             the parameters in order
 * @param staticSharedBytes  bytes of static {@code .shared} memory the kernel and the functions it calls use; dynamic
 *                           shared memory starts after them, aligned to 16
 * @param localBytes         bytes of {@code .local} memory per thread (stack frames and call parameters)
 * @param registers          registers per thread in the emulator's register file (declared registers, special
 *                           registers and constants)
 */
public record PtxKernel(String name, List<PtxParam> params, int staticSharedBytes, int localBytes, int registers) {
    public PtxKernel {
        params = List.copyOf(params);
    }

    /** Bytes of the kernel parameter buffer. */
    public int paramBytes() {
        return params.isEmpty() ? 0 : params.getLast().offset() + params.getLast().size();
    }
}
