package org.polygpu.bench.study;

/**
 * One line of {@code study.csv}: a benchmark on {@code gpus} GPUs of {@code topology} under {@code policy} (or
 * {@code hand}, the hand-optimized baseline), with its makespan, the lower bound of that benchmark and machine, the
 * hand-optimized baseline's makespan there, and the bytes copied in each direction.
 *
 * @param benchmark     {@code vec}, {@code bs}, {@code ml}, {@code cg} or {@code mul}
 * @param topology      the emulated topology's preset name
 * @param gpus          how many of its GPUs the run had
 * @param policy        the device-selection policy, or {@link #HAND}
 * @param makespanNanos first kernel or copy's start to the last one's end
 * @param boundNanos    the lower bound ({@link DataflowBound#nanos()}), NaN when unknown
 * @param handNanos     the hand-optimized baseline's makespan, -1 when the benchmark has none
 * @param bytesH2d      bytes copied host to device
 * @param bytesD2d      bytes copied device to device
 * @param bytesD2h      bytes copied device to host
 */
record StudyRow(String benchmark, String topology, int gpus, String policy, long makespanNanos, double boundNanos,
                long handNanos, long bytesH2d, long bytesD2d, long bytesD2h) {
    /** The policy column of the hand-optimized baseline's rows. */
    static final String HAND = "hand";

    boolean isHand() {
        return policy.equals(HAND);
    }

    double makespanMicros() {
        return makespanNanos / 1e3;
    }
}
