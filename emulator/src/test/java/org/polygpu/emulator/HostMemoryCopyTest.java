package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.emulator.timing.CopySpec;
import org.polygpu.emulator.timing.LinkSpec;

/**
 * Copies of host memory from {@code allocateHost} (pinned on CUDA) move at the link's bandwidth; copies of any other
 * host memory (pageable) as much slower as the device model's pageable figure is below its pinned one, each with
 * its kind's latency ({@link CopyCost}).
 */
class HostMemoryCopyTest {
    private static final long MB = 1_000_000;

    private static long copy(EmulatedBackend b, MemorySegment host, boolean toDevice) {
        StreamHandle s = b.createStream(0);
        DeviceBuffer d = b.allocate(0, MB);
        long start = b.hostNanos();
        if (toDevice) {
            b.copyHostToDevice(host, d, MB, s, OperationLabel.NONE);
        } else {
            b.copyDeviceToHost(d, host, MB, s, OperationLabel.NONE);
        }
        b.synchronizeAll();
        return b.hostNanos() - start;
    }

    @Test
    void pageableHostMemoryIsSlowerByTheModelsRatio() {
        // H100: pinned 54.4 / 53.2 GB/s, pageable 12.2 / 10.8 GB/s, on Fixtures' 10 GB/s (host to GPU 0) and 8 GB/s
        // (GPU 0 to host) links, with each kind's own latency
        CopySpec c = DeviceModel.H100.copies();
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).model(DeviceModel.H100)
                .hostApiNanos(0).build(); Arena arena = Arena.ofConfined()) {
            assertEquals(Math.round(c.hostToDevicePinned().latencyNs()) + MB / 10, copy(b, b.allocateHost(MB), true));
            double slowdown = c.hostToDevicePinned().bandwidthGBps() / c.hostToDevicePageable().bandwidthGBps();
            assertEquals(Math.round(c.hostToDevicePageable().latencyNs()) + Math.ceil(MB / 10.0 * slowdown),
                    copy(b, arena.allocate(MB), true), 1);
            double back = c.deviceToHostPinned().bandwidthGBps() / c.deviceToHostPageable().bandwidthGBps();
            assertEquals(Math.round(c.deviceToHostPageable().latencyNs()) + Math.ceil(MB / 8.0 * back),
                    copy(b, arena.allocate(MB), false), 1);
        }
    }

    @Test
    void anExplicitCopyLatencyAppliesToEveryKind() {
        CopyCost cost = CopyCost.host(DeviceModel.H100.copies(), true, false, 4096, 500);
        assertEquals(500, cost.latencyNanos());
        assertEquals(CopyCost.device(DeviceModel.H100.copies(), -1).latencyNanos(),
                Math.round(DeviceModel.H100.copies().deviceToDevice().latencyNs()));
    }

    @Test
    void pageableFasterThanPinnedIsNoSpeedUp() {
        LinkSpec l = new LinkSpec(10, 0);
        CopySpec odd = new CopySpec(l, new LinkSpec(20, 0), l, l, l);
        assertEquals(1, CopyCost.host(odd, true, false, 1 << 20, -1).slowdown());
        assertThrows(IllegalArgumentException.class, () -> new CopyCost(-1, 1));
    }

    /**
     * Pageable bytes beyond the host's cache move at the slower rate: a copy twice the cache's size goes at the
     * harmonic mean of the two rates, one within it at the first.
     */
    @Test
    void pageableBytesBeyondTheHostCacheGoAtTheirOwnRate() {
        LinkSpec pinned = new LinkSpec(40, 0);
        LinkSpec pageable = new LinkSpec(20, 0).withBeyond(1 << 20, 5);
        CopySpec c = new CopySpec(pinned, pageable, pinned, pinned, pinned);
        assertEquals(2, CopyCost.host(c, true, false, 1 << 20, -1).slowdown(), 1e-12);
        assertEquals(40 * (1 / 20.0 + 1 / 5.0) / 2, CopyCost.host(c, true, false, 2 << 20, -1).slowdown(), 1e-12);
        assertEquals(1, CopyCost.host(c, false, false, 2 << 20, -1).slowdown(), 1e-12);
        assertEquals((1 << 20) / 20.0 + (3 << 20) / 5.0, pageable.nanos(4 << 20), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> new LinkSpec(1, 0, 0, 1));
    }
}
