package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.polygpu.config.MemoryModel;

/** The streams and events made ready when the CUDA backend opens, so that a program's first use finds them set up. */
class PreparedStreamsTest {
    @Test
    void openingPreparesFourStreamsAndThirtyTwoEventsAndWarmsEveryStreamWithACopyEachWay() {
        FakeCudaDriverApi fake = new FakeCudaDriverApi().writingInt("deviceGetCount", 1)
                .writingInt("deviceGetAttribute", 32);
        try (CudaBackend gpu = CudaBackend.open(new CudaDriver(fake.api()), 1, MemoryModel.EXPLICIT, null)) {
            Map<String, Integer> calls = fake.calls();
            assertEquals(5, calls.get("streamCreate"), "the internal stream and 4 prepared ones");
            assertEquals(32, calls.get("eventCreate"));
            assertEquals(5, calls.get("memcpyHtoDAsync"));
            assertEquals(5, calls.get("memcpyDtoHAsync"));
            assertEquals(1, calls.get("memHostAlloc"));
            assertEquals(1, calls.get("memFreeHost"));
            fake.resetCalls();
            for (int i = 0; i < 4; i++) {
                gpu.createStream(0);
            }
            for (int i = 0; i < 32; i++) {
                gpu.createEvent(0);
            }
            assertEquals(Map.of(), fake.calls(), "the prepared ones are handed out without a driver call");
            gpu.createStream(0);
            assertEquals(Map.of("streamCreate", 1), fake.calls());
        }
    }

    @Test
    void closingDestroysThePreparedStreamsAndEventsNeverHandedOut() {
        FakeCudaDriverApi fake = new FakeCudaDriverApi().writingInt("deviceGetCount", 1)
                .writingInt("deviceGetAttribute", 32);
        CudaBackend gpu = CudaBackend.open(new CudaDriver(fake.api()), 1, MemoryModel.EXPLICIT, null);
        gpu.createStream(0);
        fake.resetCalls();
        gpu.close();
        assertEquals(5, fake.calls().get("streamDestroy"), "3 prepared, 1 handed out, the internal one");
        assertEquals(32, fake.calls().get("eventDestroy"));
    }
}
