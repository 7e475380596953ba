package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.StreamHandle;

/** A Java kernel's writes through a read-only parameter are refused as faults naming kernel, parameter and element. */
class JavaKernelReadOnlyTest {
    private static final int N = 8;
    private static final ReadOnlyParameters X_IN = ReadOnlyParameters.of(List.of("x", "y", "a", "n"),
            List.of(true, false, false, false), List.of(4, 4, 0, 0));

    /** Writes {@code x[5] = -1} before {@code y[i] = x[i]}; arguments (x, y, a, n). */
    private static final JavaKernelModule CLOBBER = JavaKernelModule.builder()
            .kernel("clobber", ctx -> {
                MemorySegment x = ctx.pointer(0);
                MemorySegment y = ctx.pointer(1);
                for (int i = 0; i < ctx.intArg(3); i++) {
                    y.setAtIndex(JAVA_FLOAT, i, x.getAtIndex(JAVA_FLOAT, i));
                }
                x.setAtIndex(JAVA_FLOAT, 5, -1f);
            }, KernelCost.fixed(0, 0))
            .build();

    @Test
    void writeThroughReadOnlyParameterFaultsNamingParameterAndElement() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            DeviceBuffer x = filled(b, 3f);
            DeviceBuffer y = filled(b, 0f);
            StreamHandle s = b.createStream(0);
            FunctionHandle clobber = b.function(b.loadModule(0, CLOBBER), "clobber");
            b.launch(clobber, LaunchConfig.of(1, N), new Object[] {x, y, 1f, N}, s, new OperationLabel(7, "clobber"),
                    X_IN);
            b.synchronizeAll();
            BackendException fault = b.takeFault(7).orElseThrow();
            assertTrue(fault.getMessage().contains("memcheck: kernel 'clobber' (a Java kernel) wrote element 5 (byte "
                    + "20) of the buffer passed for parameter 'x', which the signature declares read-only (in/const) "
                    + "(device 0)"), fault.getMessage());
            assertEquals(3f, read(b, x, s).getAtIndex(JAVA_FLOAT, 5), "the refused write left x as it was");
        }
    }

    @Test
    void readingReadOnlyParametersAndSharingWithAWritableOneIsAllowed() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            DeviceBuffer x = filled(b, 2f);
            DeviceBuffer y = filled(b, 1f);
            StreamHandle s = b.createStream(0);
            FunctionHandle saxpy = b.function(b.loadModule(0, Fixtures.module()), "saxpy");
            b.launch(saxpy, LaunchConfig.of(1, N), new Object[] {x, y, 3f, N}, s, new OperationLabel(1, "saxpy"),
                    X_IN);
            // The same buffer for x (read-only) and y (written): the write is allowed, as for a PTX kernel.
            b.launch(saxpy, LaunchConfig.of(1, N), new Object[] {y, y, 1f, N}, s, new OperationLabel(2, "saxpy"),
                    X_IN);
            b.synchronizeAll();
            assertTrue(b.takeFault(1).isEmpty() && b.takeFault(2).isEmpty());
            assertEquals(14f, read(b, y, s).getAtIndex(JAVA_FLOAT, N - 1));
        }
    }

    private static DeviceBuffer filled(EmulatedBackend b, float value) {
        MemorySegment h = b.allocateHost(4L * N);
        for (int i = 0; i < N; i++) {
            h.setAtIndex(JAVA_FLOAT, i, value);
        }
        DeviceBuffer d = b.allocate(0, 4L * N);
        StreamHandle s = b.createStream(0);
        b.copyHostToDevice(h, d, 4L * N, s, OperationLabel.NONE);
        b.synchronizeAll();
        return d;
    }

    private static MemorySegment read(EmulatedBackend b, DeviceBuffer d, StreamHandle s) {
        MemorySegment out = b.allocateHost(4L * N);
        b.copyDeviceToHost(d, out, 4L * N, s, OperationLabel.NONE);
        b.synchronizeAll();
        return out;
    }
}
