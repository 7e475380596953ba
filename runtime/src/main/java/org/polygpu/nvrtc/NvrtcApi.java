package org.polygpu.nvrtc;

import java.lang.foreign.MemorySegment;

/**
 * The NVRTC C functions that polygpu uses, one method per function with the C parameters as memory segments.
 *
 * <p>Each method returns the raw {@code nvrtcResult}; {@link Nvrtc} checks it. {@code program} parameters are the
 * {@code nvrtcProgram} handle itself, {@code programOut} parameters point to where a handle is stored. Output
 * parameters point to memory the caller allocated.
 */
interface NvrtcApi {
    int version(MemorySegment major, MemorySegment minor);

    int createProgram(MemorySegment programOut, MemorySegment source, MemorySegment name, int headerCount,
            MemorySegment headers, MemorySegment includeNames);

    int addNameExpression(MemorySegment program, MemorySegment nameExpression);

    int compileProgram(MemorySegment program, int optionCount, MemorySegment options);

    int getPtxSize(MemorySegment program, MemorySegment sizeOut);

    int getPtx(MemorySegment program, MemorySegment ptx);

    int getCubinSize(MemorySegment program, MemorySegment sizeOut);

    int getCubin(MemorySegment program, MemorySegment cubin);

    int getProgramLogSize(MemorySegment program, MemorySegment sizeOut);

    int getProgramLog(MemorySegment program, MemorySegment log);

    int getLoweredName(MemorySegment program, MemorySegment nameExpression, MemorySegment loweredNameOut);

    int destroyProgram(MemorySegment programInOut);

    /** The C string NVRTC keeps for {@code result} (a zero-length segment to be reinterpreted by the caller). */
    MemorySegment getErrorString(int result);
}
