package org.polygpu.policies;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.polygpu.policies.Fixtures.arg;
import static org.polygpu.sched.spi.LocationSet.ofBits;

import org.junit.jupiter.api.Test;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * {@code earliest-finish-time} on the 2-GPU test matrix, where 45 MB take 1 ms from one GPU to the other (45 GB/s),
 * 2.25 ms from the host to GPU 1 (20 GB/s) and 4.5 ms to GPU 0 (10 GB/s), so waits and copies compare in round
 * numbers. Durations are taught through the policy's {@code WorkObserver} side; the clock stands still unless a test
 * moves it.
 */
class EarliestFinishTimePolicyTest {
    private static final long KERNEL = 42;
    private static final long LONG_KERNEL = 43;
    private static final long MB45 = 45_000_000;
    private static final long MS = 1_000_000;

    private long now = 1_000 * MS;
    private final EarliestFinishTimePolicy policy = new EarliestFinishTimePolicy(settings(2));

    /** The test matrix's settings with the test's clock. */
    private PolicySettings settings(int devices) {
        PolicySettings s = Fixtures.settings(devices);
        return new PolicySettings(devices, s.bandwidth(), s.dataThreshold(), () -> now);
    }

    private static SelectionRequest request(long workKey, Fixtures.Arg... args) {
        SelectionRequest r = Fixtures.request(2, args);
        return new SelectionRequest(r.argumentBytes(), r.validLocations(), r.busyStreams(), 0, workKey);
    }

    /** Teaches the policy one launch of {@code workKey} on {@code device} lasting {@code nanos}. */
    private void measured(int device, long workKey, long nanos) {
        policy.finished(device, workKey, policy.enqueued(device, workKey, 1), nanos);
    }

    @Test
    void aKernelNeverMeasuredIsPlacedAsMinmaxTransferTimePlacesIt() {
        // Data only on GPU 1 and the host: minmax-transfer-time takes GPU 1; so does the policy, not knowing KERNEL.
        SelectionRequest r = request(KERNEL, arg(MB45, 1, Fixtures.HOST), arg(1000, Fixtures.HOST));
        assertEquals(Fixtures.policy("minmax-transfer-time", 2).select(r, ofBits(0b11)),
                policy.select(r, ofBits(0b11)));
        assertEquals(1, policy.select(r, ofBits(0b11)));
    }

    @Test
    void aKernelMeasuredAsTakingNoTimeIsPlacedAsMinmaxTransferTimePlacesIt() {
        // A backend doing no work measures 0 ns: every device would look free and the data alone decide, so device 2,
        // holding both arguments but crowded (4 busy streams, mean 1), would take everything; min-max passes it over.
        EarliestFinishTimePolicy four = new EarliestFinishTimePolicy(settings(4));
        four.finished(2, KERNEL, four.enqueued(2, KERNEL, 1), 0);
        SelectionRequest c = Fixtures.request(4, new int[] {0, 0, 4, 0}, arg(1000, 2), arg(1000, 2, 3));
        SelectionRequest crowded = new SelectionRequest(c.argumentBytes(), c.validLocations(), c.busyStreams(), 0,
                KERNEL);
        assertEquals(Fixtures.policy("minmax-transfer-time", 4).select(crowded, ofBits(0b1111)),
                four.select(crowded, ofBits(0b1111)));
        assertEquals(3, four.select(crowded, ofBits(0b1111)));
    }

    @Test
    void workThatIsNotAKernelIsPlacedByMinmaxTransferTime() {
        measured(0, KERNEL, MS);
        SelectionRequest r = request(SelectionRequest.UNKNOWN_WORK, arg(MB45, 1));
        assertEquals(1, policy.select(r, ofBits(0b11)));
    }

    @Test
    void anIdleDeviceHoldingTheInputsWins() {
        measured(0, KERNEL, MS);
        assertEquals(1, policy.select(request(KERNEL, arg(MB45, 1)), ofBits(0b11)));
        assertEquals(0, policy.select(request(KERNEL, arg(MB45, 0)), ofBits(0b11)));
    }

    @Test
    void aBusyDeviceHoldingTheInputsWinsWhileItsWaitIsShorterThanTheCopy() {
        measured(1, KERNEL, MS);
        measured(1, LONG_KERNEL, MS / 2);
        policy.enqueued(0, LONG_KERNEL, 1); // GPU 0 busy for 0.5 ms; the copy to GPU 1 takes 1 ms
        assertEquals(0, policy.select(request(KERNEL, arg(MB45, 0, Fixtures.HOST)), ofBits(0b11)));
    }

    @Test
    void aDeviceBusyLongerThanTheCopyLosesToAnIdleOne() {
        measured(1, KERNEL, MS);
        measured(1, LONG_KERNEL, 3 * MS);
        long token = policy.enqueued(0, LONG_KERNEL, 1); // GPU 0 busy for 3 ms; the copy to GPU 1 takes 1 ms
        // The host's copy is valid, so GPU 0's replica is ready now and can be copied at once.
        assertEquals(1, policy.select(request(KERNEL, arg(MB45, 0, Fixtures.HOST)), ofBits(0b11)));
        // Once the long kernel is seen to finish, GPU 0 is idle again and holds the data.
        policy.finished(0, LONG_KERNEL, token, 3 * MS);
        assertEquals(0, policy.select(request(KERNEL, arg(MB45, 0, Fixtures.HOST)), ofBits(0b11)));
    }

    @Test
    void aDeviceRunningAKernelThatLeavesRoomWinsOverACopy() {
        measured(1, KERNEL, MS);
        measured(1, LONG_KERNEL, 3 * MS);
        // 3 ms on a fifth of GPU 0: KERNEL runs beside it and ends in 1.6 ms at worst, before the 2 ms on GPU 1.
        policy.enqueued(0, LONG_KERNEL, 0.2);
        assertEquals(0, policy.select(request(KERNEL, arg(MB45, 0, Fixtures.HOST)), ofBits(0b11)));
    }

    @Test
    void copiesQueuedOnAHostLinkDelayTheNextInputsOverIt() {
        measured(1, KERNEL, MS);
        // 45 MB from the host: 2.25 ms to GPU 1, 4.5 ms to GPU 0; GPU 1 is chosen and its host link queues the copy.
        assertEquals(1, policy.select(request(KERNEL, arg(MB45, Fixtures.HOST)), ofBits(0b11)));
        policy.enqueued(1, KERNEL, 0.01);
        // 9 MB more: 0.45 ms to GPU 1, but behind 2.25 ms of copies; 0.9 ms to GPU 0's idle link.
        assertEquals(0, policy.select(request(KERNEL, arg(MB45 / 5, Fixtures.HOST)), ofBits(0b11)));
    }

    @Test
    void aReplicaStillArrivingIsCopiedOnOnlyOnceItHasArrived() {
        measured(1, KERNEL, MS);
        measured(1, LONG_KERNEL, 3 * MS);
        // GPU 0 receives 45 MB from the host (4.5 ms) for a kernel, and runs a 3 ms kernel.
        assertEquals(0, policy.select(request(KERNEL, arg(MB45, Fixtures.HOST)), ofBits(0b01)));
        policy.enqueued(0, KERNEL, 0.01);
        policy.enqueued(0, LONG_KERNEL, 1);
        // The array is valid on GPU 0 and the host; GPU 1 would copy it from GPU 0 (45 GB/s against 20), but
        // only once it is there: 4.5 + 1 + 1 ms against GPU 0's 3 + 1.
        assertEquals(0, policy.select(request(KERNEL, arg(MB45, 0, Fixtures.HOST)), ofBits(0b11)));
    }

    @Test
    void aPristineArgumentIsNotCopied() {
        measured(1, KERNEL, MS);
        // A on GPU 0 (1 ms to GPU 1), B never written: GPU 0 copies nothing.
        SelectionRequest r = request(KERNEL, arg(MB45, 0), arg(MB45, Fixtures.HOST));
        SelectionRequest pristineB = new SelectionRequest(r.argumentBytes(), r.validLocations(), r.busyStreams(), 0,
                KERNEL, 0b10, LocationSet.allDevices(r.busyStreams().length));
        assertEquals(0, policy.select(pristineB, ofBits(0b11)));
        // Written on the host, B costs GPU 0 4.5 ms and GPU 1 2.25 ms after A's 1 ms.
        assertEquals(1, policy.select(r, ofBits(0b11)));
    }

    @Test
    void predictedWorkEndsAsTheClockPasses() {
        measured(1, KERNEL, MS);
        measured(1, LONG_KERNEL, 3 * MS);
        policy.enqueued(0, LONG_KERNEL, 1);
        SelectionRequest r = request(KERNEL, arg(MB45, 0, Fixtures.HOST));
        assertEquals(1, policy.select(r, ofBits(0b11)));
        now += 3 * MS; // the long kernel is predicted to be done, though not yet seen to finish
        assertEquals(0, policy.select(r, ofBits(0b11)));
    }

    @Test
    void anInputOnlyOnABusyDeviceIsTakenToBeReadyWhenItsQueueIsDone() {
        measured(1, KERNEL, MS);
        measured(1, LONG_KERNEL, 3 * MS);
        policy.enqueued(0, LONG_KERNEL, 1);
        // GPU 0 may be producing it: moving to GPU 1 means its 3 ms and then the 1 ms copy, so GPU 0 stays best.
        assertEquals(0, policy.select(request(KERNEL, arg(MB45, 0)), ofBits(0b11)));
    }

    @Test
    void onlyCandidatesAreConsidered() {
        measured(1, KERNEL, MS);
        measured(1, LONG_KERNEL, 3 * MS);
        policy.enqueued(0, LONG_KERNEL, 1);
        assertEquals(0, policy.select(request(KERNEL, arg(MB45, 0, Fixtures.HOST)), ofBits(0b01)));
    }

    @Test
    void launchesOfFreshArraysSpreadOverTheDevicesAsTheyQueueUp() {
        measured(0, KERNEL, MS);
        int[] picked = new int[4];
        for (int i = 0; i < picked.length; i++) {
            picked[i] = policy.select(request(KERNEL, arg(1000)), ofBits(0b11));
            policy.enqueued(picked[i], KERNEL, 1);
        }
        assertArrayEquals(new int[] {0, 1, 0, 1}, picked);
    }

    /** Equal predictions go round the devices from the one after the last chosen, fallback choices included. */
    @Test
    void tiesGoRoundTheDevices() {
        EarliestFinishTimePolicy four = new EarliestFinishTimePolicy(settings(4));
        SelectionRequest r = Fixtures.request(4, arg(1000, Fixtures.HOST));
        SelectionRequest unknown = new SelectionRequest(r.argumentBytes(), r.validLocations(), r.busyStreams(), 0,
                LONG_KERNEL);
        SelectionRequest known = new SelectionRequest(r.argumentBytes(), r.validLocations(), r.busyStreams(), 0,
                KERNEL);
        four.finished(0, KERNEL, four.enqueued(0, KERNEL, 1), MS);
        // Never measured: minmax-transfer-time explores round-robin (0, then 1); then the known kernel goes on at 2.
        int[] picked = {four.select(unknown, ofBits(0b1111)), four.select(unknown, ofBits(0b1111)),
            four.select(known, ofBits(0b1111)), four.select(known, ofBits(0b1111)), four.select(known, ofBits(0b1111))};
        assertArrayEquals(new int[] {0, 1, 2, 3, 0}, picked);
    }

    @Test
    void theQueueOfADeviceIsWhatWasPredictedWhenEachLaunchWasEnqueued() {
        measured(0, LONG_KERNEL, 3 * MS);
        measured(0, KERNEL, MS);
        long token = policy.enqueued(0, LONG_KERNEL, 1);
        assertEquals(3 * MS, token);
        // Learning a shorter duration meanwhile must not leave GPU 0 with a negative or stale queue.
        measured(1, LONG_KERNEL, 0);
        policy.finished(0, LONG_KERNEL, token, 0);
        assertEquals(0, policy.select(request(KERNEL, arg(MB45, 0)), ofBits(0b11)));
        assertEquals(1, policy.select(request(KERNEL, arg(MB45, 1)), ofBits(0b11)));
    }

    @Test
    void durationsAreTheShortestOfTheFirstMeasurementsThenAMovingAverage() {
        KernelDurations d = new KernelDurations();
        assertEquals(-1, d.predict(KERNEL));
        d.learn(KERNEL, 3000); // a first launch slowed by its neighbours
        assertEquals(3000, d.predict(KERNEL));
        d.learn(KERNEL, 1000);
        assertEquals(1000, d.predict(KERNEL));
        assertEquals(-1, d.predict(LONG_KERNEL));
        d.learn(KERNEL, 9000); // past the first two the newest weighs 1/8
        assertEquals(2000, d.predict(KERNEL));
    }

    @Test
    void theFirstLaunchesAskedForAreTimedThenOneInSixtyFour() {
        KernelDurations d = new KernelDurations();
        // Launched many times before any launch finishes: only the first two are timed.
        int timed = 0;
        for (int i = 0; i < KernelDurations.SAMPLE_EVERY - 1 + KernelDurations.FIRST; i++) {
            timed += d.wantsSample(KERNEL) ? 1 : 0;
        }
        assertEquals(KernelDurations.FIRST, timed);
        for (int i = 0; i < 4 * KernelDurations.SAMPLE_EVERY; i++) {
            timed += d.wantsSample(KERNEL) ? 1 : 0;
        }
        assertEquals(KernelDurations.FIRST + 4, timed);
        assertTrue(d.wantsSample(LONG_KERNEL));
    }

    @Test
    void abandonedLaunchesTeachNothing() {
        KernelDurations d = new KernelDurations();
        d.learn(KERNEL, -1);
        d.learn(SelectionRequest.UNKNOWN_WORK, 500);
        assertEquals(-1, d.predict(KERNEL));
        assertEquals(-1, d.predict(SelectionRequest.UNKNOWN_WORK));
    }
}
