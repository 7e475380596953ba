package org.polygpu.calibration;

import org.polygpu.backend.Backend;

/**
 * How much the calibration suite measures: buffer sizes, loop lengths and repetitions.
 *
 * @param streamBytes     the buffer streaming loads and stores sweep and the DRAM pointer chase walks, a power of
 *                        two (far larger than any L2)
 * @param oneBlockBytes   bytes one thread block loads and stores alone (one SM's bandwidth)
 * @param l2Bytes         the buffer read over and over for the L2 bandwidth, a power of two (smaller than any L2)
 * @param chainIterations sets the loop lengths: the dependent chains run 8 times as many instructions, each of the
 *                        8 independent chains of a thread as many, the shared-memory loop a quarter as many
 *                        iterations, the atomics a 64th
 * @param maxCopyBytes    the largest copy, a power of two from 64 KiB (copies run from 4 KiB up, by factors of 4)
 * @param warmups         untimed runs before the timed ones
 * @param repeats         timed runs of each benchmark; the median is kept
 * @param batch           launches between the two events of one timed kernel run (the time is divided by it)
 * @param launches        empty launches per timed batch
 */
public record CalibrationSettings(long streamBytes, long oneBlockBytes, long l2Bytes, int chainIterations,
                                  long maxCopyBytes, int warmups, int repeats, int batch, int launches) {
    /** The smallest copy measured. */
    public static final long MIN_COPY_BYTES = 4096;

    public CalibrationSettings {
        powerOfTwo("streamBytes", streamBytes, 1 << 20);
        powerOfTwo("l2Bytes", l2Bytes, 1 << 16);
        powerOfTwo("maxCopyBytes", maxCopyBytes, 1 << 16);
        if (l2Bytes > streamBytes) {
            throw new IllegalArgumentException("l2Bytes (" + l2Bytes + ") must not exceed streamBytes ("
                    + streamBytes + ")");
        }
        if (oneBlockBytes < 1 << 16 || oneBlockBytes > streamBytes) {
            throw new IllegalArgumentException("oneBlockBytes must be from 65536 to streamBytes, got " + oneBlockBytes);
        }
        if (chainIterations < 64 || warmups < 0 || repeats < 1 || batch < 1 || launches < 1) {
            throw new IllegalArgumentException("chainIterations must be at least 64, warmups at least 0, repeats, "
                    + "batch and launches at least 1; got " + chainIterations + ", " + warmups + ", " + repeats + ", "
                    + batch + ", " + launches);
        }
    }

    /**
     * The defaults for {@code backend}'s clock. A real GPU: 256 MiB streams, 16 MiB for one block, a 4 MiB L2
     * buffer, 4096 chain iterations, copies up to 64 MiB, 2 warm-ups, the median of 5 runs of 3 launches, batches of
     * 100 empty launches; a few seconds on a current GPU. A virtual clock (the emulator, which is exact and
     * interprets every instruction it times): the same streams, smaller loops (one block 1 MiB, 512 iterations), one
     * run of one launch.
     */
    public static CalibrationSettings defaults(Backend backend) {
        return switch (backend.clock()) {
            case REAL -> new CalibrationSettings(256L << 20, 16L << 20, 4L << 20, 4096, 64L << 20, 2, 5, 3, 100);
            case VIRTUAL -> new CalibrationSettings(64L << 20, 1L << 20, 4L << 20, 512, 64L << 20, 0, 1, 1, 100);
        };
    }

    private static void powerOfTwo(String name, long value, long min) {
        if (value < min || Long.bitCount(value) != 1) {
            throw new IllegalArgumentException(name + " must be a power of two of at least " + min + ", got "
                    + value);
        }
    }
}
