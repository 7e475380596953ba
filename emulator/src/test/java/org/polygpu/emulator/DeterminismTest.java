package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

class DeterminismTest {
    @Test
    void theSameProgramGivesTheSameTimeline() {
        List<TimedOperation> first = run();
        List<TimedOperation> second = run();
        assertEquals(first, second);
        assertEquals(4 * 60, first.size());
    }

    @Test
    void manyLaunchesKeepAnExactMakespan() {
        // A scale check: 200 000 launches with an event each, polled as the scheduler does, in bounded memory.
        int launches = 200_000;
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).hostApiNanos(1_000)
                .launchLatencyNanos(1_000).build()) {
            FunctionHandle move = b.function(b.loadModule(0, Fixtures.module()), "move");
            StreamHandle s = b.createStream(0);
            EventHandle e = b.createEvent(0);
            DeviceBuffer x = b.allocate(0, 4);
            Object[] args = {x, x};
            int completedByPolling = 0;
            for (int i = 0; i < launches; i++) {
                b.launch(move, LaunchConfig.of(1, 1), args, s, OperationLabel.NONE);
                b.recordEvent(e, s);
                if (b.queryEvent(e)) {
                    completedByPolling++;
                }
            }
            b.synchronizeAll();
            assertTrue(completedByPolling > 0);
            assertEquals((launches - 1) * 2_100L + 1_000, b.makespanNanos());
        }
    }

    /** Two devices, four streams, copies both ways and kernels, with host polling in between. */
    private static List<TimedOperation> run() {
        long bytes = 1 << 20;
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).build()) {
            b.recordTimeline(true);
            FunctionHandle[] store = new FunctionHandle[2];
            StreamHandle[] streams = new StreamHandle[4];
            DeviceBuffer[] buffers = new DeviceBuffer[4];
            EventHandle[] events = new EventHandle[4];
            for (int d = 0; d < 2; d++) {
                store[d] = b.function(b.loadModule(d, Fixtures.module()), "store");
            }
            for (int i = 0; i < 4; i++) {
                streams[i] = b.createStream(i % 2);
                buffers[i] = b.allocate(i % 2, bytes);
                events[i] = b.createEvent(i % 2);
            }
            var host = b.allocateHost(bytes);
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < 4; i++) {
                    OperationLabel label = new OperationLabel(round * 4L + i, "op" + i);
                    b.copyHostToDevice(host, buffers[i], bytes >> (i % 3), streams[i], label);
                    b.launch(store[i % 2], LaunchConfig.of(1, 32), new Object[] {buffers[i], round}, streams[i], label);
                    b.streamWaitEvent(streams[i], events[(i + 1) % 4]);
                    b.copyDeviceToDevice(buffers[(i + 2) % 4], buffers[i], bytes, streams[i], label);
                    b.recordEvent(events[i], streams[i]);
                    b.queryEvent(events[(i + 3) % 4]);
                }
            }
            b.synchronizeAll();
            return b.timeline();
        }
    }
}
