package org.polygpu.emulator.ptx;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.MemoryModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.ManagedMigrations;
import org.polygpu.topology.BandwidthMatrix;

/** A PTX kernel faults only the pages of managed memory it touches, and its stores land in the one allocation. */
class ManagedPagesTest {
    private static final ModuleImage.Ptx VECTOR = new ModuleImage.Ptx(TestDevice.fixture("vector_add.ptx"));
    private static final BandwidthMatrix TWO_GPUS = new BandwidthMatrix(new double[][] {
            {100, 50, 8}, {50, 200, 16}, {10, 20, 0}});
    private static final long PAGE = 64 << 10;
    private static final long BYTES = 16 * PAGE;
    private static final int N = 64;

    @Test
    void aKernelFaultsThePagesItTouchesOnly() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(TWO_GPUS).hostApiNanos(0)
                .memoryModel(MemoryModel.MANAGED).build()) {
            DeviceBuffer x = b.allocateManaged(BYTES);
            DeviceBuffer y = b.allocateManaged(BYTES);
            DeviceBuffer z = b.allocateManaged(BYTES);
            StreamHandle host = b.createStream(0);
            for (DeviceBuffer m : new DeviceBuffer[] {x, y, z}) {
                b.prefetch(m, 0, BYTES, -1, host, OperationLabel.NONE);
            }
            b.synchronizeAll();
            MemorySegment hx = b.hostView(x);
            MemorySegment hy = b.hostView(y);
            for (int i = 0; i < N; i++) {
                hx.setAtIndex(JAVA_FLOAT, i, i);
                hy.setAtIndex(JAVA_FLOAT, i, 2);
            }
            FunctionHandle vadd = b.function(b.loadModule(1, VECTOR), "vadd");
            StreamHandle s = b.createStream(1);
            // z's elements go to its page 5; x and y are read from their first page.
            BufferOffset z5 = new BufferOffset(z, 5 * PAGE);
            b.launch(vadd, LaunchConfig.of(1, N), new Object[] {x, y, z5, N}, s, OperationLabel.NONE,
                    ReadOnlyParameters.NONE);
            b.synchronizeAll();
            assertEquals(new ManagedMigrations(3, 0, 3, 3 * PAGE), b.managedMigrations());
            assertEquals(3f + 2f, b.hostView(z).getAtIndex(JAVA_FLOAT, 5 * PAGE / 4 + 3));
            b.launch(vadd, LaunchConfig.of(1, N), new Object[] {x, y, z5, N}, s, OperationLabel.NONE,
                    ReadOnlyParameters.NONE);
            b.synchronizeAll();
            assertEquals(3, b.managedMigrations().faultedPages(), "the same pages are on device 1 now");
        }
    }
}
