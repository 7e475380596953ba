package org.polygpu.emulator;

/**
 * The work of one kernel launch as the timing model sees it.
 *
 * @param flops floating-point operations executed by the whole grid, finite and non-negative
 * @param bytes bytes moved between the SMs and device memory by the whole grid, finite and non-negative
 */
public record KernelWork(double flops, double bytes) {
    public KernelWork {
        if (!(flops >= 0) || Double.isInfinite(flops)) {
            throw new IllegalArgumentException("flops must be finite and non-negative, got " + flops);
        }
        if (!(bytes >= 0) || Double.isInfinite(bytes)) {
            throw new IllegalArgumentException("bytes must be finite and non-negative, got " + bytes);
        }
    }
}
