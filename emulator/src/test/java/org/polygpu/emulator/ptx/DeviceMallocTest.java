package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.topology.BandwidthMatrix;

/**
 * {@code malloc} and {@code free} in kernels ({@link DeviceHeap}): blocks outlive the kernel that allocated them until
 * a kernel frees them, {@code malloc} returns null when the heap is exhausted, and freeing what {@code malloc} did not
 * return is a fault. The kernels are compiled by NVRTC (skipped without it).
 */
class DeviceMallocTest {
    private static final String SOURCE = """
            #include <cstdlib>
            extern "C" __global__ void build(int **slots, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                int *p = (int *) malloc(n * sizeof(int));
                if (p != NULL) {
                    for (int j = 0; j < n; j++) p[j] = i + j;
                }
                slots[i] = p;
            }
            extern "C" __global__ void consume(int **slots, int *sums, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                int s = -1;
                if (slots[i] != NULL) {
                    s = 0;
                    for (int j = 0; j < n; j++) s += slots[i][j];
                }
                sums[i] = s;
                free(slots[i]);
            }
            """;

    @Test
    void blocksOutliveTheirKernelUntilFreedAndExhaustionGivesNull() {
        PtxModule m = CudaCompiler.compile(SOURCE, "compute_70");
        assertTrue(m.usesDeviceHeap());
        int threads = 256;
        int n = 10;
        try (TestDevice d = new TestDevice()) {
            DeviceHeap heap = d.heap(threads * 48L); // 40 bytes round up to 48: room for every thread
            long slots = d.allocate(8L * threads);
            long sums = d.allocate(4L * threads);
            d.launch(m, "build", 4, 64, slots, n);
            assertEquals(threads * 48L, heap.used());
            long[] pointers = d.longsAt(slots, threads);
            Arrays.sort(pointers);
            for (int i = 1; i < threads; i++) {
                assertTrue(pointers[i] - pointers[i - 1] >= 48, "blocks do not overlap");
                assertEquals(0, pointers[i] % 16, "16-byte aligned");
            }
            d.launch(m, "consume", 4, 64, slots, sums, n);
            int[] expected = new int[threads];
            for (int i = 0; i < threads; i++) {
                expected[i] = n * i + n * (n - 1) / 2;
            }
            assertArrayEquals(expected, d.intsAt(sums, threads));
            assertEquals(0, heap.used(), "every block freed");

            d.launch(m, "build", 1, 64, slots, 1000); // 4000 bytes each: only the first few fit
            d.launch(m, "consume", 1, 64, slots, sums, 1000);
            int[] got = d.intsAt(sums, 64);
            int allocated = 0;
            for (int i = 0; i < 64; i++) {
                allocated += got[i] >= 0 ? 1 : 0;
                assertTrue(got[i] == -1 || got[i] == 1000 * i + 1000 * 999 / 2, "thread " + i + ": " + got[i]);
            }
            assertEquals(threads * 48 / 4000, allocated, "malloc returns null once the heap is full");
            assertEquals(0, heap.used());
        }
    }

    @Test
    void freeingWhatMallocDidNotReturnIsAFaultAndWithoutAHeapMallocIsNull() {
        PtxModule m = CudaCompiler.compile(SOURCE, "compute_70");
        try (TestDevice d = new TestDevice()) {
            long slots = d.allocate(8L * 32);
            long sums = d.allocate(4L * 32);
            d.launch(m, "build", 1, 32, slots, 4);
            assertArrayEquals(new long[32], d.longsAt(slots, 32), "no heap: malloc returns null");
            d.heap(4096);
            d.launch(m, "build", 1, 1, slots, 4);
            d.launch(m, "consume", 1, 1, slots, sums, 4);
            BackendException e = assertThrows(BackendException.class, () -> d.launch(m, "consume", 1, 1, slots,
                    sums, 4));
            assertTrue(e.getMessage().contains("not a block that malloc returned, or freed already"), e.getMessage());
        }
    }

    /** On the emulated backend the heap belongs to the device: a later launch, on another stream, reads the blocks. */
    @Test
    void theBackendKeepsEachDevicesHeapAcrossLaunches() {
        CudaCompiler.ptx("__global__ void probe() {}", "compute_70"); // skips without NVRTC
        try (EmulatedBackend b = EmulatedBackend.builder().topology(new BandwidthMatrix(new double[][] {
            {0, 24, 12}, {24, 0, 12}, {12, 12, 0}})).hostApiNanos(0).parallelism(2).build()) {
            for (int device = 0; device < 2; device++) {
                ModuleHandle m = b.loadModule(device, new ModuleImage.CudaSource(SOURCE, "heap.cu", List.of(),
                        List.of()));
                DeviceBuffer slots = b.allocate(device, 8L * 64);
                DeviceBuffer sums = b.allocate(device, 4L * 64);
                b.launch(b.function(m, "build"), LaunchConfig.of(2, 32), new Object[] {slots, 3}, b.createStream(
                        device), OperationLabel.NONE);
                b.synchronizeAll();
                StreamHandle other = b.createStream(device);
                b.launch(b.function(m, "consume"), LaunchConfig.of(2, 32), new Object[] {slots, sums, 3}, other,
                        OperationLabel.NONE);
                int[] got = new int[64];
                b.copyDeviceToHost(sums, MemorySegment.ofArray(got), 4L * 64, other, OperationLabel.NONE);
                b.synchronizeAll();
                for (int i = 0; i < 64; i++) {
                    assertEquals(3 * i + 3, got[i], "device " + device + ", thread " + i);
                }
            }
        }
    }

    @Test
    void freeBlocksMergeWithTheirNeighbours() {
        try (Arena arena = Arena.ofConfined()) {
            DeviceHeap heap = new DeviceHeap(GlobalMemory.FIRST_ADDRESS, arena.allocate(64));
            long a = heap.allocate(16);
            long b = heap.allocate(16);
            long c = heap.allocate(32);
            assertEquals(0, heap.allocate(1), "full");
            assertTrue(heap.free(a));
            assertTrue(heap.free(c));
            assertEquals(0, heap.allocate(48), "two free blocks of 16 and 32, not adjacent");
            assertTrue(heap.free(b));
            assertEquals(a, heap.allocate(64), "all three merged");
            assertFalse(heap.free(b), "b lies inside a live block but is not one");
            assertTrue(heap.free(0), "free(NULL) does nothing");
            assertEquals(0, heap.allocate(0));
        }
    }
}
