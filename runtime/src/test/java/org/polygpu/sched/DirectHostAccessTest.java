package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.polygpu.array.Access.READ;
import static org.polygpu.array.Access.WRITE;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.testing.NoWorkBackend;

/**
 * When the scheduler lets the host touch an array's host copy directly: reads while the copy is valid and nothing
 * pending writes the array; writes while the host holds the only, written copy and nothing pending uses it; never
 * for a recorded DAG; revoked when device work is scheduled and when the array is freed.
 */
class DirectHostAccessTest {
    @Test
    void grantsFollowCoherenceAndPendingWork() {
        try (NoWorkBackend backend = new NoWorkBackend(2, NoWorkContexts.NOTHING_FINISHES);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            Kernel reader = NoWorkContexts.kernel(ctx, "reader", READ);
            Kernel writer = NoWorkContexts.kernel(ctx, "writer", WRITE);
            DeviceArray x = NoWorkContexts.array(ctx);
            assertNull(x.directHostRead(), "nothing is granted before a host access");
            ctx.read(x, 0);
            assertNotNull(x.directHostRead(), "a pristine array's host copy is valid");
            assertNull(x.directHostWrite(), "but its zeros are valid everywhere, so a write must go through");
            ctx.write(x, 0, 1f);
            assertNotNull(x.directHostWrite());
            NoWorkContexts.launch(ctx, reader, x);
            assertNull(x.directHostRead(), "device work revokes both");
            assertNull(x.directHostWrite());
            ctx.read(x, 1);
            assertNotNull(x.directHostRead(), "a pending reader does not stop host reads");
            assertNull(x.directHostWrite(), "it stops host writes, and the device holds a copy too");
            ctx.write(x, 1, 2f);
            assertNotNull(x.directHostWrite(), "the write waited for the reader and invalidated the device copy");
            NoWorkContexts.launch(ctx, writer, x);
            ctx.synchronize();
            assertNull(x.directHostRead(), "finished device work still needs a host access to bring the copy back");
            ctx.read(x, 0);
            assertNotNull(x.directHostRead());
            ctx.free(x);
            assertNull(x.directHostRead(), "freeing revokes");
        }
    }

    @Test
    void aRecordedDagGetsEveryAccess() {
        try (NoWorkBackend backend = new NoWorkBackend(1);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config().withRecording(true, false))) {
            DeviceArray x = NoWorkContexts.array(ctx);
            ctx.write(x, 0, 1f);
            ctx.read(x, 0);
            assertNull(x.directHostRead());
            assertNull(x.directHostWrite());
        }
    }
}
