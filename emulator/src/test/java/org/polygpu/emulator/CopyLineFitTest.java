package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.polygpu.emulator.timing.LinkSpec;

/** Copy lines, with and without a knee where pageable copies outgrow the host's cache. */
class CopyLineFitTest {
    private static final double[] SIZES = {1 << 16, 1 << 20, 1 << 24, 1 << 28};

    @Test
    void aStraightLineIsRecovered() {
        LinkSpec truth = new LinkSpec(12.5, 9000);
        LinkSpec fitted = CopyLineFit.fit(SIZES, times(truth));
        assertEquals(12.5, fitted.bandwidthGBps(), 1e-6);
        assertEquals(9000, fitted.latencyNs(), 1e-3);
        assertFalse(fitted.hasBeyond());
    }

    @Test
    void aKneeIsRecoveredAtTheLargestSizeOnTheLine() {
        LinkSpec truth = new LinkSpec(14, 15000).withBeyond(1 << 24, 7);
        LinkSpec fitted = CopyLineFit.fit(SIZES, times(truth));
        assertTrue(fitted.hasBeyond());
        assertEquals(1 << 24, fitted.beyondBytes());
        assertEquals(14, fitted.bandwidthGBps(), 1e-6);
        assertEquals(7, fitted.beyondGBps(), 1e-6);
    }

    /** The largest copy 10% slower than the line is noise, not a second regime. */
    @Test
    void aLargestCopyALittleSlowerMakesNoKnee() {
        double[] t = times(new LinkSpec(14, 15000));
        t[3] *= 1.1;
        assertFalse(CopyLineFit.fit(SIZES, t).hasBeyond());
    }

    @Test
    void aFlatCurveFallsBackToTheLargestCopysRate() {
        LinkSpec fitted = CopyLineFit.fit(new double[] {1000, 2000}, new double[] {10, 9});
        assertEquals(2000 / 9.0, fitted.bandwidthGBps(), 1e-9);
        assertEquals(0, fitted.latencyNs());
    }

    @Test
    void oneSizeIsNotEnough() {
        assertThrows(IllegalArgumentException.class, () -> CopyLineFit.fit(new double[] {4096, 4096},
                new double[] {1, 1}));
    }

    private static double[] times(LinkSpec link) {
        double[] t = new double[SIZES.length];
        for (int i = 0; i < t.length; i++) {
            t[i] = link.nanos(SIZES[i]);
        }
        return t;
    }
}
