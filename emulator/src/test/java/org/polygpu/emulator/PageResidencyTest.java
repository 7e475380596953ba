package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Page residency: first touch populates for free, a move counts the pages elsewhere by source, the last page short. */
class PageResidencyTest {
    private static final long PAGE = PageResidency.PAGE_BYTES;

    @Test
    void untouchedPagesArePopulatedWhereTheyAreFirstTouchedWithoutATransfer() {
        PageResidency r = new PageResidency(3 * PAGE);
        PageResidency.Moves m = r.moveTo(0, 3 * PAGE, 1, 2);
        assertEquals(0, m.totalPages());
        assertEquals(1, r.location(2));
    }

    @Test
    void aMoveCountsThePagesAndBytesOfEachSourceAndTheLastPageIsShort() {
        PageResidency r = new PageResidency(2 * PAGE + 100);
        assertEquals(3, r.pages());
        r.moveTo(0, PAGE, 0, 2);
        r.moveTo(PAGE, PAGE + 100, -1, 2);
        PageResidency.Moves m = r.moveTo(0, 2 * PAGE + 100, 1, 2);
        assertEquals(1, m.pages(0));
        assertEquals(PAGE, m.bytes(0));
        assertEquals(2, m.pages(m.host()));
        assertEquals(PAGE + 100, m.bytes(m.host()));
        assertEquals(0, m.pages(1));
        assertEquals(0, r.moveTo(0, 2 * PAGE + 100, 1, 2).totalPages(), "everything is on device 1 now");
    }

    @Test
    void aRangeMovesEveryPageItOverlapsAndNothingElse() {
        PageResidency r = new PageResidency(4 * PAGE);
        r.moveTo(0, 4 * PAGE, 0, 1);
        PageResidency.Moves m = r.moveTo(PAGE - 4, 8, -1, 1);
        assertEquals(2, m.totalPages(), "bytes across the boundary of pages 0 and 1");
        assertEquals(0, r.location(2));
        assertEquals(PageResidency.HOST, r.location(1));
    }
}
