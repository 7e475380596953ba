package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class StreamQueueTest {
    @Test
    void commandsRunInOrderAndAFailureIsRecordedWithoutStoppingTheQueue() {
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        StreamQueue q = new StreamQueue("test-queue", e -> failures.add(e.getMessage()));
        for (int i = 0; i < 50; i++) {
            int n = i;
            q.submit(() -> {
                if (n == 10) {
                    throw new IllegalStateException("command 10 failed");
                }
                ran.add("c" + n);
            });
        }
        q.awaitIdle();
        q.finish();
        assertEquals(49, ran.size());
        assertEquals("c0", ran.get(0));
        assertEquals("c49", ran.get(48));
        assertEquals(List.of("command 10 failed"), failures);
    }

    /** A command that blocks (a wait for another rank) holds back the commands after it, and only them. */
    @Test
    void aBlockedCommandHoldsBackItsQueueOnly() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        StreamQueue blocked = new StreamQueue("blocked", e -> { });
        StreamQueue free = new StreamQueue("free", e -> { });
        blocked.submit(() -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        blocked.submit(() -> ran.add("after the wait"));
        free.submit(() -> ran.add("other stream"));
        free.awaitIdle();
        assertEquals(List.of("other stream"), ran);
        release.countDown();
        blocked.awaitIdle();
        assertEquals(List.of("other stream", "after the wait"), ran);
        blocked.finish();
        free.finish();
    }
}
