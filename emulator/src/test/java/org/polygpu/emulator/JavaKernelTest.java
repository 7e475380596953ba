package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

class JavaKernelTest {
    private static final OperationLabel L = OperationLabel.NONE;

    @Test
    void saxpyComputesThroughCopiesInAndOut() {
        int n = 1000;
        long bytes = 4L * n;
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            for (int device = 0; device < 2; device++) {
                MemorySegment x = b.allocateHost(bytes);
                MemorySegment y = b.allocateHost(bytes);
                for (int i = 0; i < n; i++) {
                    x.setAtIndex(JAVA_FLOAT, i, i);
                    y.setAtIndex(JAVA_FLOAT, i, 1);
                }
                DeviceBuffer dx = b.allocate(device, bytes);
                DeviceBuffer dy = b.allocate(device, bytes);
                StreamHandle s = b.createStream(device);
                FunctionHandle saxpy = b.function(b.loadModule(device, Fixtures.module()), "saxpy");
                b.copyHostToDevice(x, dx, bytes, s, L);
                b.copyHostToDevice(y, dy, bytes, s, L);
                b.launch(saxpy, LaunchConfig.of(4, 256), new Object[] {dx, dy, 2.0f, n}, s, L);
                MemorySegment out = b.allocateHost(bytes);
                b.copyDeviceToHost(dy, out, bytes, s, L);
                b.synchronizeAll();
                for (int i = 0; i < n; i++) {
                    assertEquals(2.0f * i + 1, out.getAtIndex(JAVA_FLOAT, i), "element " + i + " on device " + device);
                }
            }
        }
    }

    @Test
    void argumentFromTheWrongDeviceIsRefused() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            FunctionHandle saxpy = b.function(b.loadModule(0, Fixtures.module()), "saxpy");
            DeviceBuffer x = b.allocate(0, 16);
            DeviceBuffer y = b.allocate(1, 16);
            BackendException e = assertThrows(BackendException.class, () -> b.launch(saxpy, LaunchConfig.of(1, 4),
                    new Object[] {x, y, 1f, 4}, b.createStream(0), L));
            assertTrue(e.getMessage().contains("argument 1 of kernel 'saxpy' is a buffer of device 1 but the kernel "
                    + "is launched on device 0"), e.getMessage());
        }
    }

    @Test
    void launchLimitsAreChecked() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            FunctionHandle store = b.function(b.loadModule(0, Fixtures.module()), "store");
            StreamHandle s = b.createStream(0);
            Object[] args = {b.allocate(0, 4), 1};
            BackendException threads = assertThrows(BackendException.class,
                    () -> b.launch(store, LaunchConfig.of(1, 2048), args, s, L));
            assertTrue(threads.getMessage().contains("block (2048, 1, 1)"), threads.getMessage());
            BackendException threads3d = assertThrows(BackendException.class,
                    () -> b.launch(store, new LaunchConfig(Dim3.of(1), new Dim3(32, 32, 2), 0), args, s, L));
            assertTrue(threads3d.getMessage().contains("2048 threads, more than the 1024 threads per block"),
                    threads3d.getMessage());
            BackendException blockZ = assertThrows(BackendException.class,
                    () -> b.launch(store, new LaunchConfig(Dim3.of(1), new Dim3(1, 1, 65), 0), args, s, L));
            assertTrue(blockZ.getMessage().contains("exceeds the limits (1024, 1024, 64)"), blockZ.getMessage());
            BackendException gridY = assertThrows(BackendException.class,
                    () -> b.launch(store, new LaunchConfig(new Dim3(1, 65_536, 1), Dim3.of(1), 0), args, s, L));
            assertTrue(gridY.getMessage().contains("limit of 65535 in y and z"), gridY.getMessage());
            BackendException shared = assertThrows(BackendException.class,
                    () -> b.launch(store, new LaunchConfig(Dim3.of(1), Dim3.of(1), 64 << 10), args, s, L));
            assertTrue(shared.getMessage().contains("65536 bytes of shared memory"), shared.getMessage());
            BackendException scalar = assertThrows(BackendException.class,
                    () -> b.launch(store, LaunchConfig.of(1, 1), new Object[] {args[0], "1"}, s, L));
            assertTrue(scalar.getMessage().contains("argument 1 of kernel 'store' is a String"), scalar.getMessage());
        }
    }

    @Test
    void unknownKernelNameListsTheKernelsThatExist() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            ModuleHandle m = b.loadModule(0, Fixtures.module());
            BackendException e = assertThrows(BackendException.class, () -> b.function(m, "sazpy"));
            assertEquals("no kernel 'sazpy' in the module; its kernels are [saxpy, store, move]", e.getMessage());
        }
    }

    @Test
    void cubinImagesAndMalformedPtxAreRefused() {
        // The emulator interprets PTX (org.polygpu.emulator.ptx); it cannot run a CUBIN's machine code.
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            BackendException ptx = assertThrows(BackendException.class,
                    () -> b.loadModule(0, new ModuleImage.Ptx(".version 8.0\n.bogus 1\n")));
            assertTrue(ptx.getMessage().contains("PTX line 2: unsupported directive '.bogus'"), ptx.getMessage());
            BackendException cubin = assertThrows(BackendException.class,
                    () -> b.loadModule(0, new ModuleImage.Cubin(new byte[4], "sm_70")));
            assertTrue(cubin.getMessage().contains("CUBIN for sm_70"), cubin.getMessage());
            assertTrue(cubin.getMessage().contains("compile to PTX"), cubin.getMessage());
        }
    }

    @Test
    void kernelReadingOutOfBoundsFailsAtTheNextSynchronisation() {
        JavaKernelModule module = JavaKernelModule.builder()
                .kernel("overrun", ctx -> ctx.pointer(0).getAtIndex(JAVA_FLOAT, 4), KernelCost.fixed(0, 0))
                .build();
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            FunctionHandle f = b.function(b.loadModule(0, module), "overrun");
            b.launch(f, LaunchConfig.of(1, 1), new Object[] {b.allocate(0, 16)}, b.createStream(0), L);
            BackendException e = assertThrows(BackendException.class, b::synchronizeAll);
            assertTrue(e.getMessage().contains("kernel 'overrun' on device 0 accessed memory out of bounds"),
                    e.getMessage());
        }
    }

    @Test
    void moduleBuilderRefusesDuplicateNames() {
        JavaKernelModule.Builder builder = JavaKernelModule.builder().kernel("k", Fixtures.STORE,
                KernelCost.fixed(0, 0));
        assertThrows(IllegalArgumentException.class, () -> builder.kernel("k", Fixtures.MOVE, KernelCost.fixed(0, 0)));
    }

    @Test
    void deviceModelPresetsAreFoundIgnoringCase() {
        assertEquals(DeviceModel.A100, DeviceModel.preset("a100"));
        assertEquals("9.0", DeviceModel.preset("H100").properties().computeCapability());
        assertEquals(80, DeviceModel.preset("v100").properties().multiprocessors());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceModel.preset("P100"));
        assertEquals("unknown device model 'P100': valid models are V100, A100, H100 or the path of a device-model "
                + "file (.json)", e.getMessage());
    }
}
