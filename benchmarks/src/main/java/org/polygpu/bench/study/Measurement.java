package org.polygpu.bench.study;

/**
 * What one run of the study measured, on the emulator's virtual clock.
 *
 * @param makespanNanos        first kernel or copy's start to the last one's end
 * @param bytesHostToDevice    bytes copied from the host to the GPUs
 * @param bytesDeviceToDevice  bytes copied between GPUs
 * @param bytesDeviceToHost    bytes copied from the GPUs to the host
 * @param bound                the lower bound of the run's program and machine, or null when the run gives none
 *                             (the hand-optimized baselines: their rows take the polygpu program's)
 */
record Measurement(long makespanNanos, long bytesHostToDevice, long bytesDeviceToDevice, long bytesDeviceToHost,
                   DataflowBound bound) {
}
