package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;

class ObjectTableTest {
    @Test
    void objectsAreFoundByKeyAndTypeAndAWrongOneIsNamed() {
        ObjectTable t = new ObjectTable();
        t.put(7, "a stream");
        assertEquals("a stream", t.get(7, String.class));
        BackendException e = assertThrows(BackendException.class, () -> t.get(7, Integer.class));
        assertTrue(e.getMessage().contains("no Integer with key 7 on this rank (String)"), e.getMessage());
        assertEquals("a stream", t.remove(7, String.class));
        assertFalse(t.contains(7));
    }

    /** A wait for a generation returns once that generation (or a later one) has been recorded. */
    @Test
    void aWaitForAGenerationEndsWhenItIsRecorded() throws Exception {
        ObjectTable t = new ObjectTable();
        t.recorded(3, 1);
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> t.awaitRecorded(3, 2));
        Thread.sleep(50);
        assertFalse(waiting.isDone());
        t.recorded(3, 3);
        waiting.get(5, TimeUnit.SECONDS);
        assertEquals(3, t.recordedGeneration(3));
        t.recorded(3, 2);
        assertEquals(3, t.recordedGeneration(3));
    }
}
