package org.polygpu.calibration;

import org.polygpu.backend.Backend;

/**
 * How much the calibration suite measures: buffer sizes, loop lengths and repetitions.
 *
 * @param streamBytes     the buffer streaming loads and stores sweep and the DRAM pointer chase walks, a power of
 *                        two (far larger than any L2)
 * @param oneBlockBytes   bytes one thread block loads and stores alone (one SM's bandwidth)
 * @param l2Bytes         the buffer read about twice for the L2 bandwidth and walked by the L2 chase, a power of
 *                        two (smaller than the L2)
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
     * The defaults for {@code backend}'s clock, the L2 buffer {@link #l2BytesFor} its first device. A real GPU: 256 MiB streams, 16
     * MiB for one block, 4096 chain iterations, copies up to 256 MiB, 2 warm-ups, the median of 5 runs of 3 launches, batches of
     * 100 empty launches; a few seconds on a current GPU. A virtual clock (the emulator, which is exact and
     * interprets every instruction it times): the same streams, smaller loops (one block 1 MiB, 512 iterations), one
     * run of one launch.
     */
    public static CalibrationSettings defaults(Backend backend) {
        long l2 = l2BytesFor(backend.deviceProperties(0).computeMajor());
        return switch (backend.clock()) {
            case REAL -> new CalibrationSettings(256L << 20, 16L << 20, l2, 4096, 256L << 20, 2, 5, 3, 100);
            case VIRTUAL -> new CalibrationSettings(64L << 20, 1L << 20, l2, 512, 64L << 20, 0, 1, 1, 100);
        };
    }

    /**
     * The L2 buffer for a device of compute capability {@code major}: 16 MiB from 8 on (under half the smallest L2
     * there, the A100's 40 MB), 4 MiB before (two thirds of the V100's 6 MB).
     */
    public static long l2BytesFor(int major) {
        return major >= 8 ? 16L << 20 : 4L << 20;
    }

    /**
     * The settings that took {@code m}, as far as its figures show them (what the kernels and their launches depend
     * on: buffer sizes, loop lengths, launches per batch), to run the same kernels again on another backend; no
     * warm-ups, one run of one launch.
     *
     * @throws IllegalArgumentException naming a measurement that is missing
     */
    public static CalibrationSettings of(Measurements m) {
        long stream = bytesParameter(m, "chase-dram");
        long l2 = bytesParameter(m, "load-l2");
        long oneBlock = (long) m.get("load-one-block", "stride-1").work();
        int chains = 4 * (int) Math.round(m.get("fp32-dependent", "one-warp-per-sm").work()
                / ComputeBenchmarks.DEPENDENT_PER_ITERATION);
        long maxCopy = (long) m.of("copy-d2d").stream().mapToDouble(Measurement::work).max().orElse(1 << 16);
        int launches = (int) m.get("launch-device", "empty").work();
        return new CalibrationSettings(stream, oneBlock, l2, chains, Math.max(maxCopy, 1 << 16), 0, 1, 1, launches);
    }

    /** The buffer size that names {@code benchmark}'s measurement. */
    private static long bytesParameter(Measurements m, String benchmark) {
        return m.of(benchmark).stream().findFirst().map(x -> Long.parseLong(x.parameter()))
                .orElseThrow(() -> new IllegalArgumentException("the measurements need " + benchmark));
    }

    private static void powerOfTwo(String name, long value, long min) {
        if (value < min || Long.bitCount(value) != 1) {
            throw new IllegalArgumentException(name + " must be a power of two of at least " + min + ", got "
                    + value);
        }
    }
}
