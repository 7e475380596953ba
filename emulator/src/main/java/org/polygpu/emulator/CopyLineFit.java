package org.polygpu.emulator;

import java.util.Arrays;
import org.polygpu.emulator.timing.LinkSpec;

/**
 * The fit of one kind of copy to copies measured at several sizes, relative errors weighed alike: the straight line
 * {@code latency + bytes / bandwidth} through them all, or, when the largest copies go clearly slower than the line
 * through the smaller ones, that line up to the largest size it fits and a second rate for the bytes beyond it
 * ({@link LinkSpec#beyondBytes}). The second regime is that of pageable host memory that the host's processor
 * stages through a pinned buffer: a buffer that fits in the host's last-level cache is read from there, a larger one
 * from host memory. A knee is kept only when at least {@value #KNEE_LINE_SIZES} sizes lie on its line, the
 * largest of them moving its bytes for longer than the latency (so that the line's slope is measured), its rate
 * beyond is at most {@value #KNEE_RATIO} of the line's, and it halves the error of one line: one size measured a
 * little slower (noise), or a line through small copies that only their latency pins, does not make one.
 */
public final class CopyLineFit {
    /** The largest ratio of the rate beyond a knee to the line's rate for the knee to be kept. */
    static final double KNEE_RATIO = 0.8;
    /** The fewest sizes a knee's line goes through. */
    static final int KNEE_LINE_SIZES = 3;

    private CopyLineFit() {
    }

    /**
     * The link closest to copies of {@code bytes[i]} bytes measured at {@code nanos[i]} nanoseconds.
     *
     * @throws IllegalArgumentException when the copies are not of two sizes or more, or the arrays differ in length
     */
    public static LinkSpec fit(double[] bytes, double[] nanos) {
        if (bytes.length != nanos.length || Arrays.stream(bytes).distinct().count() < 2) {
            throw new IllegalArgumentException("a copy fit needs copies of two sizes or more, got "
                    + Arrays.toString(bytes));
        }
        LinkSpec best = line(bytes, nanos, Double.POSITIVE_INFINITY);
        double bestError = error(best, bytes, nanos);
        double[] sizes = Arrays.stream(bytes).distinct().sorted().toArray();
        double lineError = bestError;
        for (int k = KNEE_LINE_SIZES - 1; k < sizes.length - 1; k++) {
            LinkSpec knee = beyond(line(bytes, nanos, sizes[k]).withBeyond((long) sizes[k], 1), bytes, nanos);
            double error = error(knee, bytes, nanos);
            if (knee.hasBeyond() && knee.beyondGBps() <= KNEE_RATIO * knee.bandwidthGBps() && error < bestError
                    && error < lineError / 2 && knee.transferNanos(sizes[k]) > knee.latencyNs()) {
                best = knee;
                bestError = error;
            }
        }
        return best;
    }

    /** The sum of squared relative errors of {@code link} on the copies. */
    static double error(LinkSpec link, double[] bytes, double[] nanos) {
        double sum = 0;
        for (int i = 0; i < bytes.length; i++) {
            double e = (link.nanos(bytes[i]) - nanos[i]) / nanos[i];
            sum += e * e;
        }
        return sum;
    }

    /**
     * {@code link} with its rate beyond {@link LinkSpec#beyondBytes} fitted to the copies larger than that: the least
     * squared relative error of {@code latency + beyondBytes / bandwidth + (bytes - beyondBytes) * perByte}; a link
     * moving every byte at its first rate when that leaves no time for the bytes beyond.
     */
    static LinkSpec beyond(LinkSpec link, double[] bytes, double[] nanos) {
        double sxx = 0;
        double sxr = 0;
        double atKnee = link.nanos(link.beyondBytes());
        for (int i = 0; i < bytes.length; i++) {
            double x = bytes[i] - link.beyondBytes();
            if (x > 0) {
                double w = 1 / (nanos[i] * nanos[i]);
                sxx += w * x * x;
                sxr += w * x * (nanos[i] - atKnee);
            }
        }
        LinkSpec plain = new LinkSpec(link.bandwidthGBps(), link.latencyNs());
        return sxx > 0 && sxr > 0 ? link.withBeyond(link.beyondBytes(), sxx / sxr) : plain;
    }

    /**
     * The line {@code latency + bytes * perByte} through the copies of at most {@code upTo} bytes minimising the
     * squared relative errors, {@code sum((fit - t)/t)^2}: a linear least-squares problem with weights {@code 1/t^2}.
     * A negative latency is clamped (the slope refitted through the origin); a line that does not rise (noise on a
     * flat curve) falls back to the largest copy's rate with no latency.
     */
    static LinkSpec line(double[] bytes, double[] nanos, double upTo) {
        double s00 = 0;
        double s01 = 0;
        double s11 = 0;
        double r0 = 0;
        double r1 = 0;
        int largest = -1;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] > upTo) {
                continue;
            }
            double w = 1 / (nanos[i] * nanos[i]);
            double b = bytes[i];
            s00 += w;
            s01 += w * b;
            s11 += w * b * b;
            r0 += w * nanos[i];
            r1 += w * b * nanos[i];
            if (largest < 0 || b > bytes[largest]) {
                largest = i;
            }
        }
        double det = s00 * s11 - s01 * s01;
        double latency = (r0 * s11 - r1 * s01) / det;
        double perByte = (s00 * r1 - s01 * r0) / det;
        if (latency < 0) {
            latency = 0;
            perByte = r1 / s11;
        }
        if (!(perByte > 0)) {
            return new LinkSpec(bytes[largest] / nanos[largest], 0);
        }
        return new LinkSpec(1 / perByte, latency);
    }
}
