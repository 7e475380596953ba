package org.polygpu.cluster;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/**
 * {@link HostOrdering} over an emulated device: a hold stands for another rank's event (a future the test completes),
 * the enqueuing calls return before it completes, and the values copied show the order the device saw.
 */
class HostOrderingTest {
    private static final int INTS = 4096;
    private static final long BYTES = 4L * INTS;
    private static final OperationLabel L = OperationLabel.NONE;

    private final Backend b = new LockedBackend(Backends.open("emulated", BackendOptions.defaults()
            .withEmulatedDevices(1)).backend());
    private final HostOrdering ordering = new HostOrdering(b);
    private final StreamHandle s = b.createStream(0);
    private final StreamHandle other = b.createStream(0);
    private final MemorySegment host = b.allocateHost(BYTES);
    private final MemorySegment back = b.allocateHost(BYTES);
    private final MemorySegment otherBack = b.allocateHost(BYTES);
    private final DeviceBuffer buffer = b.allocate(0, BYTES);
    /** The other rank's event: completed by the test. */
    private final CompletableFuture<Void> remote = new CompletableFuture<>();

    @AfterEach
    void close() {
        remote.complete(null);
        ordering.close();
        b.close();
    }

    @Test
    void commandsBehindAHoldAreEnqueuedAtOnceAndReachTheDeviceOnlyAfterIt() {
        ordering.hold(s, remote::join);
        ordering.enqueue(s, () -> b.copyHostToDevice(host, buffer, BYTES, s, L));
        ordering.enqueue(s, () -> b.copyDeviceToHost(buffer, back, BYTES, s, L));
        EventHandle done = record(s);
        // Another stream waiting for the pending record is held too, and copies the same bytes after it.
        ordering.streamWait(other, done);
        ordering.enqueue(other, () -> b.copyDeviceToHost(buffer, otherBack, BYTES, other, L));
        EventHandle otherDone = record(other);

        // Every call returned while the other rank's event is still pending; nothing after the hold has been made.
        assertFalse(remote.isDone());
        assertTrue(ordering.holding());
        assertFalse(ordering.recordMade(done));
        assertFalse(ordering.recordMade(otherDone));
        // The bytes the copy reads are written only now: the copy cannot have run yet.
        for (int i = 0; i < INTS; i++) {
            host.setAtIndex(JAVA_INT, i, 3 * i + 1);
        }
        remote.complete(null);

        ordering.awaitRecord(otherDone);
        b.synchronizeEvent(otherDone);
        ordering.awaitRecord(done);
        b.synchronizeEvent(done);
        for (int i = 0; i < INTS; i++) {
            assertEquals(3 * i + 1, back.getAtIndex(JAVA_INT, i), "element " + i);
            assertEquals(3 * i + 1, otherBack.getAtIndex(JAVA_INT, i), "element " + i + " on the other stream");
        }
        ordering.drain();
        assertFalse(ordering.holding());
    }

    @Test
    void aStreamHoldingNothingTakesItsCommandsOnTheCallingThread() {
        Thread caller = Thread.currentThread();
        Thread[] ran = new Thread[1];
        ordering.enqueue(s, () -> ran[0] = Thread.currentThread());
        assertSame(caller, ran[0]);
        EventHandle e = record(s);
        assertTrue(ordering.recordMade(e));
        assertFalse(ordering.holding());
    }

    @Test
    void aFailedHoldSkipsTheCommandsBehindItAndIsSticky() {
        AtomicInteger ran = new AtomicInteger();
        ordering.hold(s, () -> {
            remote.join();
            throw new BackendException("rank 2 has not answered for 5.1 s while waiting");
        });
        ordering.enqueue(s, ran::incrementAndGet);
        EventHandle e = record(s);
        remote.complete(null);

        BackendException fault = assertThrows(BackendException.class, () -> ordering.awaitRecord(e));
        assertEquals("rank 2 has not answered for 5.1 s while waiting", fault.getMessage());
        assertEquals(0, ran.get());
        // Every later call names the same fault, on any stream.
        assertSame(fault, assertThrows(BackendException.class, () -> ordering.enqueue(other, ran::incrementAndGet)));
        assertSame(fault, assertThrows(BackendException.class, ordering::drain));
        assertEquals(0, ran.get());
    }

    private EventHandle record(StreamHandle stream) {
        EventHandle e = b.createEvent(0);
        ordering.record(e, stream, () -> b.recordEvent(e, stream));
        return e;
    }
}
