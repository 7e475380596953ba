package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.MemoryModel;

/**
 * The timeline brackets each launch with its own events, recorded immediately before and after the
 * {@code cuLaunchKernel} with no other driver call between, so the measured interval holds the launch alone.
 */
class TimelineStartEventsTest {
    @Test
    void eachLaunchIsBracketedByItsOwnStartAndEndEventsAndNothingElse() {
        List<String> order = new ArrayList<>();
        FakeCudaDriverApi fake = new FakeCudaDriverApi().writingInt("deviceGetCount", 1)
                .writingInt("deviceGetAttribute", 32)
                .on("eventRecord", args -> order.add("record") ? 0 : 1)
                .on("launchKernel", args -> order.add("launch") ? 0 : 1)
                .on("eventQuery", args -> order.add("query") ? 0 : 1)
                .on("ctxSetCurrent", args -> order.add("setCurrent") ? 0 : 1);
        try (CudaBackend gpu = CudaBackend.open(new CudaDriver(fake.api()), 1, MemoryModel.EXPLICIT, null)) {
            FunctionHandle f = gpu.function(gpu.loadModule(0, new ModuleImage.Ptx(".version 8.0\n")), "k");
            StreamHandle s = gpu.createStream(0);
            gpu.recordTimeline(true);
            order.clear();
            for (int i = 0; i < 3; i++) {
                gpu.launch(f, LaunchConfig.of(1, 32), new Object[0], s, OperationLabel.NONE);
            }
            assertEquals(List.of("record", "launch", "record", "record", "launch", "record", "record", "launch",
                    "record"), order);
            assertEquals(3, gpu.timeline().size());
        }
    }
}
