package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.WRITE;
import static org.polygpu.sched.NoWorkContexts.NOTHING_FINISHES;
import static org.polygpu.sched.NoWorkContexts.array;
import static org.polygpu.sched.NoWorkContexts.where;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.testing.NoWorkBackend;

/** Streams and events the program creates, the current device, and computations launched on program streams. */
class UserStreamsTest {
    private static final LaunchConfig LAUNCH = LaunchConfig.of(1, 32);

    @Test
    void aComputationOnAProgramStreamRunsThereAndStillDependsOnItsArguments() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel produce = NoWorkContexts.kernel(ctx, "produce", WRITE);
            Kernel map = NoWorkContexts.kernel(ctx, "map", READ, WRITE);
            ctx.streams().setCurrentDevice(1);
            UserStream s = ctx.streams().createStream();
            DeviceArray x = array(ctx);
            DeviceArray y = array(ctx);
            Computation a = NoWorkContexts.launch(ctx, produce, x);
            Computation b = ctx.launch(map, LAUNCH, s, x, y, NoWorkContexts.ELEMENTS);
            assertEquals(1, s.device());
            assertEquals(1, b.device());
            assertEquals(s.slot.handle.id(), b.streamId());
            assertEquals(1, b.vertexParentCount(), "b depends on a through x");
            assertFalse(a.isFinished());
            // A child of b never takes the program's stream, even under same-as-parent.
            Computation c = ctx.launch(map, LAUNCH, y, array(ctx), NoWorkContexts.ELEMENTS);
            assertEquals(1, c.vertexParentCount());
            assertEquals(1, c.device());
            assertFalse(c.stream().equals(b.stream()), where(c));
            ctx.streams().synchronize(s);
            assertTrue(a.isFinished() && b.isFinished(), "the stream's work and what it waited for finished");
        }
    }

    @Test
    void theCurrentDeviceIsOneOfTheDevicesInUse() {
        try (NoWorkBackend backend = new NoWorkBackend(3, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            assertEquals(0, ctx.streams().currentDevice());
            ctx.streams().setCurrentDevice(2);
            assertEquals(2, ctx.streams().currentDevice());
            assertEquals(2, ctx.streams().createStream().device());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ctx.streams().setCurrentDevice(3));
            assertEquals("device 3 is out of range 0..2 (the devices in use)", e.getMessage());
        }
    }

    @Test
    void eventsAreRecordedOnTheirOwnDeviceAndDestroyedOnce() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            UserStreams streams = ctx.streams();
            UserStream s0 = streams.createStream();
            UserEvent e0 = streams.createEvent();
            streams.setCurrentDevice(1);
            UserStream s1 = streams.createStream();
            streams.record(e0, s0);
            streams.waitFor(s1, e0);
            streams.synchronize(e0);
            IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                    () -> streams.record(e0, s1));
            assertEquals("cannot record event 2 of device 0 on stream 3 of device 1: an event is recorded on a "
                    + "stream of its own device", wrong.getMessage());
            streams.destroy(e0);
            IllegalStateException gone = assertThrows(IllegalStateException.class, () -> streams.destroy(e0));
            assertEquals("event 2 of device 0 was destroyed", gone.getMessage());
            streams.destroy(s1);
            Kernel produce = NoWorkContexts.kernel(ctx, "produce", WRITE);
            assertThrows(IllegalStateException.class,
                    () -> ctx.launch(produce, LAUNCH, s1, array(ctx), NoWorkContexts.ELEMENTS));
        }
    }

    @Test
    void resetDestroysTheCurrentDevicesStreamsAndEventsOnly() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            UserStreams streams = ctx.streams();
            UserStream s0 = streams.createStream();
            streams.setCurrentDevice(1);
            UserStream s1 = streams.createStream();
            UserEvent e1 = streams.createEvent();
            streams.resetCurrentDevice();
            assertTrue(s1.isDestroyed() && e1.isDestroyed());
            assertFalse(s0.isDestroyed());
        }
    }
}
