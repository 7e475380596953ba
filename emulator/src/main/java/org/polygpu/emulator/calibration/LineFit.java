package org.polygpu.emulator.calibration;

/**
 * A weighted least-squares straight line {@code y = intercept + slope * x} through points, such as a copy's time
 * against its size ({@code time = latency + bytes / bandwidth}).
 *
 * @param intercept the line's value at {@code x = 0}
 * @param slope     its slope
 */
record LineFit(double intercept, double slope) {
    /**
     * The line minimising {@code Σ ((y_i - line(x_i)) / y_i)^2}: relative errors count alike, so that times measured
     * with the same relative noise weigh the same whatever their size, and the intercept (a latency of microseconds)
     * is not lost in the noise of the largest points (milliseconds).
     *
     * @throws IllegalArgumentException for fewer than two points, a {@code y} that is not positive, or when all
     *                                  {@code xs} are equal
     */
    static LineFit relative(double[] xs, double[] ys) {
        if (xs.length != ys.length || xs.length < 2) {
            throw new IllegalArgumentException("a line needs at least two points, got " + xs.length);
        }
        double sw = 0;
        double swx = 0;
        double swy = 0;
        for (int i = 0; i < xs.length; i++) {
            if (!(ys[i] > 0)) {
                throw new IllegalArgumentException("a relative fit needs positive values, got " + ys[i]);
            }
            double w = 1 / (ys[i] * ys[i]);
            sw += w;
            swx += w * xs[i];
            swy += w * ys[i];
        }
        double mx = swx / sw;
        double my = swy / sw;
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < xs.length; i++) {
            double w = 1 / (ys[i] * ys[i]);
            sxy += w * (xs[i] - mx) * (ys[i] - my);
            sxx += w * (xs[i] - mx) * (xs[i] - mx);
        }
        if (sxx == 0) {
            throw new IllegalArgumentException("a line needs points at two different x at least");
        }
        double slope = sxy / sxx;
        return new LineFit(my - slope * mx, slope);
    }
}
