package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.MemoryModel;

/** What the CUDA backend says of itself through the SPI, and what prefetch asks of the driver; no GPU needed. */
class CudaBackendCapabilitiesTest {
    /** One device whose driver records every {@code cuMemPrefetchAsync} as "device pointer" (the rest succeeds). */
    private static CudaBackend open(MemoryModel model, List<String> prefetches) {
        FakeCudaDriverApi fake = new FakeCudaDriverApi().writingInt("deviceGetCount", 1)
                .writingInt("deviceGetAttribute", 32).on("memPrefetchAsync", args -> {
                    prefetches.add(args[2] + " " + args[0]);
                    return 0;
                });
        return CudaBackend.open(new CudaDriver(fake.api()), 1, model, null);
    }

    @Test
    void itsClockIsTheDevicesOwn() {
        try (CudaBackend b = open(MemoryModel.EXPLICIT, new ArrayList<>())) {
            assertEquals(Backend.Clock.REAL, b.clock());
        }
    }

    @Test
    void itAcceptsPtxCubinsAndCudaSourceButNotAnotherBackendsImages() {
        try (CudaBackend b = open(MemoryModel.EXPLICIT, new ArrayList<>())) {
            assertTrue(b.accepts(new ModuleImage.Ptx(".version 8.0")));
            assertTrue(b.accepts(new ModuleImage.Cubin(new byte[4], "sm_90")));
            assertTrue(b.accepts(new ModuleImage.CudaSource("", "k.cu", List.of(), List.of())));
            assertFalse(b.accepts(() -> "Java kernels"));
        }
    }

    @Test
    void prefetchUnderExplicitMemoryAsksNothingOfTheDriver() {
        List<String> prefetches = new ArrayList<>();
        try (CudaBackend b = open(MemoryModel.EXPLICIT, prefetches)) {
            DeviceBuffer buffer = b.allocate(0, 64);
            StreamHandle stream = b.createStream(0);
            b.prefetch(buffer, -1, stream);
            b.prefetch(buffer, 0, stream);
        }
        assertEquals(List.of(), prefetches);
    }

    /** Under managed memory a new buffer is prefetched to its device, then each prefetch migrates it in turn. */
    @Test
    void prefetchUnderManagedMemoryMigratesTheBuffer() {
        List<String> prefetches = new ArrayList<>();
        try (CudaBackend b = open(MemoryModel.MANAGED, prefetches)) {
            DeviceBuffer buffer = b.allocate(0, 64);
            StreamHandle stream = b.createStream(0);
            b.prefetch(buffer, -1, stream);
            b.prefetch(buffer, 0, stream);
        }
        assertEquals(List.of("0 0", CudaDriver.DEVICE_CPU + " 0", "0 0"), prefetches);
    }

    @Test
    void aModuleLoadedFromPtxKeepsItsText() {
        try (CudaBackend b = open(MemoryModel.EXPLICIT, new ArrayList<>())) {
            String ptx = ".version 8.0\n.target sm_90\n.address_size 64\n";
            assertEquals(Optional.of(ptx), b.ptx(b.loadModule(0, new ModuleImage.Ptx(ptx))));
            assertEquals(Optional.empty(), b.ptx(b.loadModule(0, new ModuleImage.Cubin(new byte[4], "sm_90"))));
        }
    }
}
