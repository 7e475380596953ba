package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.config.DependencyPolicy;
import org.polygpu.config.RetrieveNewStreamPolicy;
import org.polygpu.dag.Dag;

/** The lifecycle of a computation (CREATED → IN_DAG → SCHEDULED → FINISHED) and what its work determines. */
class ComputationTest {
    private final NoWorkBackend backend = new NoWorkBackend(1);
    private final StreamPool pool = new StreamPool(backend, 1, RetrieveNewStreamPolicy.REUSE, c -> { });
    private final Dag<Computation> dag = new Dag<>(DependencyPolicy.WITH_CONST);
    private final DeviceArray x = new DeviceArray(0, ElementType.FLOAT, new long[] {4}, 1);
    private final DeviceArray y = new DeviceArray(1, ElementType.FLOAT, new long[] {4}, 1);

    private Computation copy() {
        return new Computation(7, new DeviceCopy(x, y));
    }

    private Computation appended(Computation c) {
        c.appended(dag.append(c, c.accessArray()));
        return c;
    }

    @Test
    void aComputationGoesThroughItsStatesInOrder() {
        Computation c = copy();
        List<Object> created = List.of(c.isFinished(), c.device(), c.streamId(), c.vertexParentCount());
        appended(c);
        StreamSlot slot = pool.newStream(0);
        EventHandle done = pool.takeEvent(0);
        c.scheduled(slot, done);
        List<Object> scheduled = List.of(c.isFinished(), c.device(), c.streamId(), c.stream() == slot.handle);
        boolean finished = c.finish(pool);
        assertEquals(List.of(false, Computation.HOST, -1, 0), created);
        assertEquals(List.of(false, 0, 0, true), scheduled);
        assertEquals(List.of(true, true), List.of(finished, c.isFinished()));
    }

    @Test
    void schedulingBeforeJoiningTheDagThrows() {
        Computation c = copy();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> c.scheduled(pool.newStream(0), pool.takeEvent(0)));
        assertEquals(c + " cannot be scheduled when CREATED, only when IN_DAG", e.getMessage());
    }

    @Test
    void joiningTheDagTwiceThrows() {
        Computation c = appended(copy());
        assertThrows(IllegalStateException.class, () -> c.appended(dag.append(c, c.accessArray())));
    }

    @Test
    void finishingBeforeJoiningTheDagThrows() {
        Computation c = copy();
        assertThrows(IllegalStateException.class, () -> c.finish(pool));
    }

    @Test
    void schedulingAFinishedComputationThrows() {
        Computation c = appended(copy());
        c.finish(pool);
        assertThrows(IllegalStateException.class, () -> c.scheduled(pool.newStream(0), pool.takeEvent(0)));
    }

    /** Copy events belong to scheduled work: before it has a stream and after it finished there are none to take. */
    @Test
    void copyEventsAreTakenOnlyWhileScheduled() {
        Computation c = appended(copy());
        assertThrows(IllegalStateException.class, () -> c.addCopyEvent(pool.takeEvent(0)));
        c.scheduled(pool.newStream(0), pool.takeEvent(0));
        c.addCopyEvent(pool.takeEvent(0));
        c.finish(pool);
        assertThrows(IllegalStateException.class, () -> c.addCopyEvent(pool.takeEvent(0)));
    }

    /** finish returns the completion and copy events to the pool once, however often it is called. */
    @Test
    void finishIsIdempotentAndReturnsEachEventOnce() {
        Computation c = appended(copy());
        EventHandle done = pool.takeEvent(0);
        EventHandle copied = pool.takeEvent(0);
        c.scheduled(pool.newStream(0), done);
        c.addCopyEvent(copied);
        List<Boolean> finishes = List.of(c.finish(pool), c.finish(pool));
        EventHandle first = pool.takeEvent(0);
        EventHandle second = pool.takeEvent(0);
        EventHandle third = pool.takeEvent(0);
        assertEquals(List.of(true, false), finishes);
        assertEquals(Set.of(done, copied), Set.of(first, second));
        assertNotSame(done, third);
        assertNotSame(copied, third);
        assertEquals(3, backend.eventCount());
    }

    /** Host-side work finishes straight from the DAG: no device, stream or event. */
    @Test
    void hostSideWorkFinishesWithoutAStream() {
        Computation c = appended(new Computation(3, HostAccess.readElement(x, 2)));
        c.finish(pool);
        assertEquals(List.of(true, Computation.HOST, -1), List.of(c.isFinished(), c.device(), c.streamId()));
        assertNull(c.stream());
        assertEquals(0, backend.eventCount());
    }

    @Test
    void kindNameAndAccessesComeFromTheWork() {
        Kernel k = new Kernel("scale", new ModuleImage.Ptx("//"), List.of(
                Parameter.pointer("in", ElementType.FLOAT, Access.READ),
                Parameter.pointer("out", ElementType.FLOAT, Access.WRITE),
                Parameter.scalar("n", ElementType.INT)), 1, null);
        List<Work> works = List.of(new KernelLaunch(k, LaunchConfig.of(1, 4), new Object[] {x, y, 4}),
                new DeviceCopy(x, y), HostAccess.readElement(x, 2), HostAccess.writeElement(x, 2),
                HostAccess.copyToHost(x), HostAccess.copyFromHost(x, true), HostAccess.copyFromHost(x, false),
                new Release(x));
        List<String> seen = works.stream().map(w -> new Computation(0, w)).map(c -> c.kind() + " " + c.name()
                + " " + c.accesses().length + " " + c.accesses()[c.accesses().length - 1].access()).toList();
        assertEquals(List.of(
                "KERNEL scale 2 WRITE",
                "COPY copy " + x + " to " + y + " 2 WRITE",
                "HOST_READ read " + x + "[2] 1 READ",
                "HOST_WRITE write " + x + "[2] 1 READ_WRITE",
                "HOST_READ copy " + x + " to host 1 READ",
                "HOST_WRITE copy host to " + x + " 1 WRITE",
                "HOST_WRITE copy host to " + x + " 1 READ_WRITE",
                "FREE free " + x + " 1 WRITE"), seen);
    }

    @Test
    void hostSideWorkRefusesToBeEnqueued() {
        StreamSlot slot = pool.newStream(0);
        for (Work w : List.<Work>of(HostAccess.copyToHost(x), new Release(x))) {
            assertThrows(IllegalStateException.class, () -> w.enqueue(backend, 0, slot.handle, OperationLabel.NONE));
        }
        assertEquals(0, backend.copyCount() + backend.launchCount());
    }

    /** A device copy enqueues one device-to-device copy between the replicas on the device it was given. */
    @Test
    void aDeviceCopyEnqueuesOneCopyBetweenItsReplicas() {
        x.setDeviceReplica(0, backend.allocate(0, x.byteSize()));
        y.setDeviceReplica(0, backend.allocate(0, y.byteSize()));
        new DeviceCopy(x, y).enqueue(backend, 0, pool.newStream(0).handle, OperationLabel.NONE);
        assertEquals(List.of(1L, 0L), List.of(backend.copyCount(), backend.launchCount()));
    }
}
