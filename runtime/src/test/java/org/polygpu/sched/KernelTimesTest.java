package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.polygpu.array.Access.READ_WRITE;
import static org.polygpu.sched.NoWorkContexts.NOTHING_FINISHES;
import static org.polygpu.sched.NoWorkContexts.array;
import static org.polygpu.sched.NoWorkContexts.launch;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.sched.spi.SelectionRequest;

/** A policy that is a {@code WorkObserver} is told of every kernel launch and its duration, and others cost nothing. */
class KernelTimesTest {
    private static long keyOf(Computation c) {
        return KernelTimes.key(c.work());
    }

    /**
     * Three launches: two of {@code a} on fresh arrays (placed by the policy) and one of {@code a} after the first
     * (which reuses its parent's stream without asking the policy); all three are reported enqueued and, at the
     * synchronize, finished with the token they were given.
     */
    @Test
    void everyLaunchIsReportedEnqueuedThenFinishedWithItsToken() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     NoWorkContexts.config().withDeviceSelectionPolicy(ObservingPolicy.NAME))) {
            ObservingPolicy policy = ObservingPolicy.last;
            Kernel a = NoWorkContexts.kernel(ctx, "a", READ_WRITE);
            DeviceArray x = array(ctx);
            long key = keyOf(launch(ctx, a, x));
            launch(ctx, a, array(ctx));
            launch(ctx, a, x);
            List<String> enqueued = List.copyOf(policy.calls);
            ctx.synchronize();
            assertEquals(List.of(key, key), policy.requestedKeys);
            assertEquals(List.of("enqueued 0 " + key, "enqueued 0 " + key, "enqueued 0 " + key), enqueued);
            // The no-work backend measures every duration as 0.
            assertEquals(List.of("finished 0 " + key + " 1 0", "finished 0 " + key + " 2 0",
                    "finished 0 " + key + " 3 0"), policy.calls.subList(3, 6).stream().sorted().toList());
        }
    }

    @Test
    void measuringTakesOneStartEventPerLaunchOnlyForAnObservingPolicy() {
        assertEquals(List.of(8L, 4L), List.of(eventsForFourLaunches(ObservingPolicy.NAME),
                eventsForFourLaunches(RotatingPolicy.NAME)));
    }

    private static long eventsForFourLaunches(String policy) {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     NoWorkContexts.config().withDeviceSelectionPolicy(policy))) {
            Kernel a = NoWorkContexts.kernel(ctx, "a", READ_WRITE);
            for (int i = 0; i < 4; i++) {
                launch(ctx, a, array(ctx));
            }
            return backend.eventCount();
        }
    }

    /** Inputs written on the host are copied in: the last copy's event starts the timing, no event is added. */
    @Test
    void aLaunchWhoseInputsAreCopiedIsTimedFromItsLastCopy() {
        assertEquals(List.of(8L, 8L), List.of(eventsForFourLaunchesOnCopiedArrays(ObservingPolicy.NAME),
                eventsForFourLaunchesOnCopiedArrays(RotatingPolicy.NAME)));
    }

    private static long eventsForFourLaunchesOnCopiedArrays(String policy) {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     NoWorkContexts.config().withDeviceSelectionPolicy(policy))) {
            Kernel a = NoWorkContexts.kernel(ctx, "a", READ_WRITE);
            for (int i = 0; i < 4; i++) {
                DeviceArray x = array(ctx);
                ctx.write(x, 0, 1.0f);
                launch(ctx, a, x);
            }
            return backend.eventCount();
        }
    }

    /**
     * The occupancy told with a launch is its warps over the 8 per multiprocessor that fill the no-work backend's
     * 80: one warp is 1/640 of the device, 80 blocks of 256 threads all of it. The request says which arguments
     * were never written.
     */
    @Test
    void launchesAreToldWithTheirOccupancyAndRequestsWithTheirPristineArguments() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     NoWorkContexts.config().withDeviceSelectionPolicy(ObservingPolicy.NAME))) {
            Kernel a = NoWorkContexts.kernel(ctx, "a", READ_WRITE, READ_WRITE);
            DeviceArray written = array(ctx);
            DeviceArray other = array(ctx);
            ctx.write(written, 0, 1.0f);
            ctx.write(other, 0, 1.0f);
            launch(ctx, a, array(ctx), written);
            ctx.launch(a, LaunchConfig.of(80, 256), other, array(ctx), NoWorkContexts.ELEMENTS);
            assertEquals(List.of(1.0 / 640, 1.0), ObservingPolicy.last.occupancies);
            assertEquals(List.of(0b01L, 0b10L), ObservingPolicy.last.pristineArguments);
        }
    }

    @Test
    void withOneDeviceThereIsNothingToChooseAndNothingIsObserved() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend,
                     NoWorkContexts.config().withDeviceSelectionPolicy(ObservingPolicy.NAME))) {
            Kernel a = NoWorkContexts.kernel(ctx, "a", READ_WRITE);
            launch(ctx, a, array(ctx));
            ctx.synchronize();
            assertEquals(List.of(List.of(), 1L), List.of(ObservingPolicy.last.calls, backend.eventCount()));
        }
    }

    @Test
    void theKeyNamesTheKernelAndTheLaunchSize() {
        try (NoWorkBackend backend = new NoWorkBackend(1, NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel a = NoWorkContexts.kernel(ctx, "a", READ_WRITE);
            Kernel b = NoWorkContexts.kernel(ctx, "b", READ_WRITE);
            DeviceArray x = array(ctx);
            long key = keyOf(launch(ctx, a, x));
            assertEquals(key, keyOf(launch(ctx, a, array(ctx))));
            assertNotEquals(key, keyOf(launch(ctx, b, x)));
            assertNotEquals(key, keyOf(ctx.launch(a, LaunchConfig.of(2, 32), x, NoWorkContexts.ELEMENTS)));
            assertNotEquals(SelectionRequest.UNKNOWN_WORK, key);
            assertEquals(SelectionRequest.UNKNOWN_WORK, KernelTimes.key(new Release(x)));
        }
    }
}
