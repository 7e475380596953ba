package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.MemoryModel;

/**
 * The timeline's events: back-to-back launches on one stream share each end event as the next start; a wait
 * enqueued between them makes the next launch record its own start; the timeline still has every launch.
 */
class TimelineStartEventsTest {
    @Test
    void aLaunchStartsAtThePreviousEndUnlessOtherWorkWasEnqueuedBetween() {
        FakeCudaDriverApi fake = new FakeCudaDriverApi().writingInt("deviceGetCount", 1)
                .writingInt("deviceGetAttribute", 32);
        try (CudaBackend gpu = CudaBackend.open(new CudaDriver(fake.api()), 1, MemoryModel.EXPLICIT, null)) {
            FunctionHandle f = gpu.function(gpu.loadModule(0, new ModuleImage.Ptx(".version 8.0\n")), "k");
            StreamHandle s = gpu.createStream(0);
            EventHandle other = gpu.createEvent(0);
            gpu.recordTimeline(true);
            fake.resetCalls();
            Object[] none = new Object[0];
            for (int i = 0; i < 3; i++) {
                gpu.launch(f, LaunchConfig.of(1, 32), none, s, OperationLabel.NONE);
            }
            assertEquals(4, fake.calls().get("eventRecord"), "one start, three ends");
            gpu.streamWaitEvent(s, other);
            gpu.launch(f, LaunchConfig.of(1, 32), none, s, OperationLabel.NONE);
            assertEquals(6, fake.calls().get("eventRecord"), "after a wait: its own start and end");
            assertEquals(4, gpu.timeline().size());
        }
    }
}
