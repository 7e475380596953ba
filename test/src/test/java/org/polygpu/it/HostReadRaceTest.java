package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.ModuleImage;
import org.polygpu.config.MemoryModel;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * A host read that races with a kernel storing through a pointer its signature declares read-only: reported once per
 * kernel and parameter, and ordered after the kernel, so the answer is the same on every run.
 */
class HostReadRaceTest {
    private static final int N = 64;
    private static final ModuleImage SOURCE = new ModuleImage.CudaSource("""
            extern "C" __global__ void clobber(const float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) { ((float *) x)[i] = 7.0f + i; y[i] = 2.0f; }
            }
            extern "C" __global__ void copy(const float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i];
            }""", "race.cu", List.of(), List.of());

    private static EmulatedBackend backend(MemoryModel model) {
        return EmulatedBackend.builder().devices(2).topology(BandwidthMatrixLoader.preset("v100x8"))
                .model(DeviceModel.V100).memoryModel(model).build();
    }

    private static Kernel kernel(ExecutionContext ctx, String name) {
        return ctx.kernel(name, SOURCE, List.of(Parameter.pointer("x", ElementType.FLOAT, Access.READ),
                Parameter.pointer("y", ElementType.FLOAT, Access.WRITE), Parameter.scalar("n", ElementType.INT)));
    }

    /** Runs the racy program once under managed memory: what it read, then the warnings. */
    private static List<Object> racyProgram() {
        try (EmulatedBackend backend = backend(MemoryModel.MANAGED);
             ExecutionContext ctx = Fixtures.context(backend)) {
            List<String> warnings = new ArrayList<>();
            ctx.warnTo(warnings::add);
            Kernel clobber = kernel(ctx, "clobber");
            assertEquals(1, clobber.readOnlyStores().size(), "the PTX stores through x");
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            ctx.copyFromHost(x, MemorySegment.ofArray(new float[N]));
            List<Object> seen = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                ctx.launch(clobber, Fixtures.launch(), x, y, N);
                seen.add(ctx.read(x, 3));
                seen.add(ctx.read(x, N - 1));
            }
            float[] all = new float[N];
            ctx.copyToHost(x, MemorySegment.ofArray(all));
            seen.add(all[5]);
            seen.addAll(warnings);
            return seen;
        }
    }

    @Test
    void aReadRacingWithAStoreThroughAReadOnlyPointerIsReportedAndWaitsForTheKernel() {
        List<Object> first = racyProgram();
        assertEquals(List.of(10f, 7f + N - 1, 10f, 7f + N - 1, 12f), first.subList(0, 5),
                "every read sees the kernel's stores");
        List<Object> warnings = first.subList(5, first.size());
        assertEquals(1, warnings.size(), "once per kernel and parameter: " + warnings);
        String w = (String) warnings.get(0);
        assertTrue(w.startsWith("polygpu: warning: race: the host reads element 3 of array #0 float[64] while kernel "
                + "'clobber' (computation 1 on device "), w);
        assertTrue(w.contains("which the DAG does not order before the read, may still write array #0 float[64] "
                + "through parameter 'x', declared read-only (in/const) (st.global."), w);
        assertTrue(w.endsWith("the read waits for the kernel: declare the parameter out or inout"), w);
        assertEquals(first, racyProgram(), "the same answers and report on every run");
    }

    @Test
    void noRaceWhenTheKernelCompletedOrDoesNotStoreOrTheStoreIsRefused() {
        try (EmulatedBackend backend = backend(MemoryModel.MANAGED);
             ExecutionContext ctx = Fixtures.context(backend)) {
            List<String> warnings = new ArrayList<>();
            ctx.warnTo(warnings::add);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            Kernel copy = kernel(ctx, "copy");
            assertTrue(copy.readOnlyStores().isEmpty());
            ctx.launch(copy, Fixtures.launch(), x, y, N);
            assertEquals(0f, ctx.read(x, 1));
            ctx.launch(kernel(ctx, "clobber"), Fixtures.launch(), x, y, N);
            ctx.synchronize();
            assertEquals(8f, ctx.read(x, 1), "the kernel completed before the read: no race");
            assertEquals(List.of(), warnings);
        }
        try (EmulatedBackend backend = backend(MemoryModel.EXPLICIT);
             ExecutionContext ctx = Fixtures.context(backend)) {
            List<String> warnings = new ArrayList<>();
            ctx.warnTo(warnings::add);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            ctx.copyFromHost(x, MemorySegment.ofArray(new float[N]));
            ctx.launch(kernel(ctx, "clobber"), Fixtures.launch(), x, y, N);
            BackendException refused = org.junit.jupiter.api.Assertions.assertThrows(BackendException.class,
                    () -> ctx.read(x, 1), "the refused store's fault is raised by the next host read");
            assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
            assertEquals(0f, ctx.read(x, 1), "refused on the emulator under explicit: x keeps its contents");
            assertEquals(List.of(), warnings, "a refused store does not race");
            ctx.synchronize();
        }
    }
}
