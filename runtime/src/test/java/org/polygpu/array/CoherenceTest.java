package org.polygpu.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Coherence.State;
import org.polygpu.sched.spi.LocationSet;

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
        assertEquals(LocationSet.ofBits(0b101), c.validLocations());
    }

    @Test
    void hostChunksAreValidUntilAWriteAndMootOnceTheHostIsWhole() {
        Coherence c = new Coherence(2);
        c.write(0);
        assertFalse(c.isHostChunkValid(3));
        c.readHostChunk(3);
        c.copiedHostChunks(5, 7);
        assertTrue(c.isHostChunkValid(3));
        assertTrue(c.isHostChunkValid(6));
        assertFalse(c.isHostChunkValid(7));
        assertEquals(1, c.hostChunkReads(), "bulk copies do not count as chunk reads");
        assertEquals(State.INVALID, c.state(2), "the host is not valid as a whole");
        assertEquals(State.MODIFIED, c.state(0));
        c.read(1);
        assertTrue(c.isHostChunkValid(3), "a read elsewhere keeps them");
        c.write(1);
        assertFalse(c.isHostChunkValid(3), "a write drops them");
        assertEquals(0, c.hostChunkReads());
        c.readHostChunk(0);
        c.read(2);
        assertTrue(c.isHostChunkValid(9), "the whole host copy is valid");
        assertEquals(0, c.hostChunkReads());
        c.write(0);
        assertFalse(c.isHostChunkValid(0), "and the chunks it had read before are not remembered");
    }

    @Test
    void aDroppedReplicaBecomesInvalidAndTheOthersKeepTheirStates() {
        Coherence c = new Coherence(2);
        c.write(0);
        c.read(1);
        c.drop(0);
        assertEquals(State.INVALID, c.state(0));
        assertEquals(State.MODIFIED, c.state(1));
        assertEquals(LocationSet.ofBits(0b010), c.validLocations());
    }

    @Test
    void theOnlyValidCopyOfAWrittenArrayCannotBeDropped() {
        Coherence c = new Coherence(2);
        c.write(1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.drop(1));
        assertEquals("location 1 holds the only valid copy; it must be written back before it is dropped",
                e.getMessage());
        assertEquals(LocationSet.ofBits(0b010), c.validLocations());
        Coherence pristine = new Coherence(2);
        pristine.read(0);
        pristine.drop(0);
        assertEquals(LocationSet.ofBits(0b100), pristine.validLocations());
    }
}
