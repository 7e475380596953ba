package org.polygpu.emulator.ptx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The memory one worker of a {@link PtxExecutor} reuses from launch to launch: warps with their register files, the
 * CTA's shared and local memory, the kernel parameters, and the register template of the current CTA. Buffers grow
 * to the largest launch seen and are never shrunk, so a stream of small launches allocates nothing.
 *
 * <p>Shared memory, local memory and the parameters are off-heap, like device memory, so that every segment the
 * loads and stores see is of one kind and the JIT compiles their accesses to plain moves; a mix of heap and native
 * segments made each access a type dispatch with alignment checks.
 *
 * <p>Used by one worker thread at a time.
 */
final class WorkerBuffers {
    private Warp[] warps = new Warp[0];
    private MemorySegment shared = MemorySegment.NULL;
    private MemorySegment local = MemorySegment.NULL;
    private MemorySegment params = MemorySegment.NULL;
    private long[] template = new long[0];

    /** {@code count} warps with at least {@code registers} registers and room for {@code maxDepth} nested calls. */
    Warp[] warps(int count, int registers, int maxDepth) {
        if (warps.length < count) {
            Warp[] grown = new Warp[count];
            System.arraycopy(warps, 0, grown, 0, warps.length);
            warps = grown;
        }
        for (int i = 0; i < count; i++) {
            Warp w = warps[i];
            if (w == null || w.regs.length < registers * 32 || w.maxDepth < Math.max(1, maxDepth)) {
                warps[i] = new Warp(registers, maxDepth);
            }
        }
        Warp[] view = new Warp[count];
        System.arraycopy(warps, 0, view, 0, count);
        return view;
    }

    /** {@code bytes} of shared memory, zeroed. */
    MemorySegment shared(long bytes) {
        shared = grown(shared, bytes);
        return zeroed(shared, bytes);
    }

    /** {@code bytes} of local memory, zeroed. */
    MemorySegment local(long bytes) {
        local = grown(local, bytes);
        return zeroed(local, bytes);
    }

    /** A copy of the kernel parameter buffer {@code values}. */
    MemorySegment params(MemorySegment values) {
        params = grown(params, values.byteSize());
        MemorySegment copy = params.asSlice(0, values.byteSize());
        copy.copyFrom(values);
        return copy;
    }

    private static MemorySegment grown(MemorySegment s, long bytes) {
        return s.byteSize() >= bytes ? s : Arena.ofAuto().allocate(Math.max(bytes, 2 * s.byteSize()), 16);
    }

    private static MemorySegment zeroed(MemorySegment s, long bytes) {
        MemorySegment view = s.asSlice(0, bytes);
        view.fill((byte) 0);
        return view;
    }

    /** At least {@code length} longs for the CTA's register template. */
    long[] template(int length) {
        if (template.length < length) {
            template = new long[length];
        }
        return template;
    }
}
