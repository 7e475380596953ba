package org.polygpu.emulator.ptx;

/**
 * The memory one worker of a {@link PtxExecutor} reuses from launch to launch: warps with their register files, the
 * CTA's shared and local memory, and the register template of the current CTA. Buffers grow to the largest launch
 * seen and are never shrunk, so a stream of small launches allocates nothing.
 *
 * <p>Used by one worker thread at a time.
 */
final class WorkerBuffers {
    private Warp[] warps = new Warp[0];
    private long[] shared = new long[0];
    private long[] local = new long[0];
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

    /** At least {@code words} longs for shared memory. */
    long[] shared(int words) {
        if (shared.length < words) {
            shared = new long[words];
        }
        return shared;
    }

    /** At least {@code words} longs for local memory. */
    long[] local(int words) {
        if (local.length < words) {
            local = new long[words];
        }
        return local;
    }

    /** At least {@code length} longs for the CTA's register template. */
    long[] template(int length) {
        if (template.length < length) {
            template = new long[length];
        }
        return template;
    }
}
