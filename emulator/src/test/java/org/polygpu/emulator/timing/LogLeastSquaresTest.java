package org.polygpu.emulator.timing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LogLeastSquaresTest {
    @Test
    void recoversTheParametersOfAMaxModel() {
        // t = max(a * x, b) + c over a few inputs: a kink, as in the timing model
        double[] xs = {1, 2, 5, 10, 20, 50, 100};
        double[] truth = {3, 40, 7};
        double[] measured = new double[xs.length];
        for (int i = 0; i < xs.length; i++) {
            measured[i] = Math.max(truth[0] * xs[i], truth[1]) + truth[2];
        }
        double[] fitted = LogLeastSquares.minimise(new double[] {1, 10, 1}, p -> {
            double[] predicted = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                predicted[i] = Math.max(p[0] * xs[i], p[1]) + p[2];
            }
            return LogLeastSquares.squaredLogErrors(predicted, measured);
        });
        assertArrayEquals(truth, fitted, 1e-3);
    }

    @Test
    void squaredLogErrorsOfExactPredictionsAreZero() {
        assertEquals(0, LogLeastSquares.squaredLogErrors(new double[] {1, 2}, new double[] {1, 2}));
        assertEquals(2 * Math.log(2) * Math.log(2),
                LogLeastSquares.squaredLogErrors(new double[] {2, 1}, new double[] {1, 2}), 1e-12);
    }

    @Test
    void parametersMustStartPositive() {
        assertEquals("parameter 1 must start positive, got 0.0", assertThrows(IllegalArgumentException.class,
                () -> LogLeastSquares.minimise(new double[] {1, 0}, p -> 0)).getMessage());
    }
}
