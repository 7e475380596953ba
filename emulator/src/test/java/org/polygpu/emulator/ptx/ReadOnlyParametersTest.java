package org.polygpu.emulator.ptx;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.StreamHandle;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.topology.BandwidthMatrix;

/** Stores through pointers a launch declares read-only fault, naming the parameter; loads and other stores do not. */
class ReadOnlyParametersTest {
    private static final ModuleImage.Ptx VECTOR = new ModuleImage.Ptx(TestDevice.fixture("vector_add.ptx"));
    private static final BandwidthMatrix ONE_GPU = new BandwidthMatrix(new double[][] {{100, 8}, {10, 0}});
    private static final List<String> NAMES = List.of("x", "y", "z", "n");
    private static final int N = 64;

    private static ReadOnlyParameters readOnly(boolean x, boolean y, boolean z) {
        return ReadOnlyParameters.of(NAMES, List.of(x, y, z, false));
    }

    @Test
    void aStoreThroughAReadOnlyPointerFaultsNamingKernelParameterAndThread() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(ONE_GPU).build()) {
            Launch l = new Launch(b);
            l.run(l.dz, readOnly(true, false, true), OperationLabel.NONE);
            BackendException e = assertThrows(BackendException.class, b::synchronizeAll);
            assertTrue(e.getMessage().contains("kernel 'vadd' block (0, 0, 0) thread (0, 0, 0)"), e.getMessage());
            assertTrue(e.getMessage().contains("parameter 'z', which the signature declares read-only"),
                    e.getMessage());
            // z is the third buffer of 256 bytes on the device, each followed by 256 unused bytes.
            assertTrue(e.getMessage().contains("at address 0x700000000400"), e.getMessage());
        }
    }

    @Test
    void readOnlyInputsAndABufferAlsoPassedForAWrittenParameterAreNotRefused() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(ONE_GPU).build()) {
            Launch l = new Launch(b);
            l.run(l.dz, readOnly(true, true, false), OperationLabel.NONE);
            // x and z are the same buffer: z may be written, so the buffer is writable.
            l.runAliased(readOnly(true, false, false));
            b.synchronizeAll();
            MemorySegment out = b.allocateHost(4L * N);
            b.copyDeviceToHost(l.dz, out, 4L * N, l.stream, OperationLabel.NONE);
            b.synchronizeAll();
            assertEquals(3f + 2f + 2f, out.getAtIndex(JAVA_FLOAT, 3), "z = (x + y) + y");
        }
    }

    @Test
    void theFaultOfALaunchForAComputationIsKeptForItAndTakenOnce() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(ONE_GPU).build()) {
            Launch l = new Launch(b);
            l.run(l.dz, readOnly(false, false, true), new OperationLabel(7, "vadd"));
            b.synchronizeAll();
            Optional<BackendException> fault = b.takeFault(7);
            assertTrue(fault.isPresent());
            assertTrue(fault.get().getMessage().contains("parameter 'z'"), fault.get().getMessage());
            assertEquals(Optional.empty(), b.takeFault(7));
        }
    }

    /** vadd's buffers on device 0: x[i] = i, y[i] = 2, z zero. */
    private static final class Launch {
        final EmulatedBackend b;
        final StreamHandle stream;
        final FunctionHandle vadd;
        final DeviceBuffer dx;
        final DeviceBuffer dy;
        final DeviceBuffer dz;

        Launch(EmulatedBackend b) {
            this.b = b;
            stream = b.createStream(0);
            vadd = b.function(b.loadModule(0, VECTOR), "vadd");
            dx = b.allocate(0, 4L * N);
            dy = b.allocate(0, 4L * N);
            dz = b.allocate(0, 4L * N);
            MemorySegment x = b.allocateHost(4L * N);
            MemorySegment y = b.allocateHost(4L * N);
            for (int i = 0; i < N; i++) {
                x.setAtIndex(JAVA_FLOAT, i, i);
                y.setAtIndex(JAVA_FLOAT, i, 2);
            }
            b.copyHostToDevice(x, dx, 4L * N, stream, OperationLabel.NONE);
            b.copyHostToDevice(y, dy, 4L * N, stream, OperationLabel.NONE);
        }

        void run(DeviceBuffer z, ReadOnlyParameters readOnly, OperationLabel label) {
            b.launch(vadd, LaunchConfig.of(1, N), new Object[] {dx, dy, z, N}, stream, label, readOnly);
        }

        void runAliased(ReadOnlyParameters readOnly) {
            b.launch(vadd, LaunchConfig.of(1, N), new Object[] {dz, dy, dz, N}, stream, OperationLabel.NONE,
                    readOnly);
        }
    }
}
