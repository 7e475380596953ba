package org.polygpu.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Coherence.State;

/** The MSI-like transitions of ARCHITECTURE.md for 2 devices and the host (location 2). */
class CoherenceTest {
    @Test
    void freshArrayIsSharedOnTheHostAndPristine() {
        Coherence c = new Coherence(2);
        assertEquals(State.SHARED, c.state(2));
        assertEquals(State.INVALID, c.state(0));
        assertTrue(c.isPristine());
    }

    @Test
    void writerBecomesModifiedAndInvalidatesTheOthers() {
        Coherence c = new Coherence(2);
        c.read(0);
        c.write(1);
        assertEquals(State.MODIFIED, c.state(1));
        assertEquals(State.INVALID, c.state(0));
        assertEquals(State.INVALID, c.state(2));
        assertFalse(c.isPristine());
    }

    @Test
    void readerJoinsAndTheModifiedHolderBecomesShared() {
        Coherence c = new Coherence(2);
        c.write(0);
        c.read(2);
        assertEquals(State.SHARED, c.state(0));
        assertEquals(State.SHARED, c.state(2));
        assertEquals(0b101, c.validMask());
    }
}
