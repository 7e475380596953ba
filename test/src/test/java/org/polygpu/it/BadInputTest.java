package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.JavaKernelModule;
import org.polygpu.emulator.KernelCost;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;

/** Bad input gets a clear error, and the context stays usable afterwards. */
class BadInputTest {
    private static final int N = 100;

    @Test
    void freedArraysSaySoEverywhere() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend)) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            ctx.launch(inc, Fixtures.launch(), x, N);
            ctx.free(x);
            assertTrue(x.isFreed());
            assertMessage(IllegalStateException.class, "array #0 float[100] was freed", () -> ctx.read(x, 0));
            assertMessage(IllegalStateException.class, "was freed", () -> ctx.write(x, 0, 1f));
            assertMessage(IllegalStateException.class, "was freed", () -> ctx.free(x));
            assertMessage(IllegalArgumentException.class, "parameter 'x: inout pointer float': array #0 float[100] "
                    + "was freed", () -> ctx.launch(inc, Fixtures.launch(), x, N));
            stillUsable(ctx, inc);
        }
    }

    @Test
    void argumentsThatDoNotMatchTheSignatureNameTheParameter() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend)) {
            Kernel inc = Fixtures.inc(ctx);
            DeviceArray ints = ctx.newArray(ElementType.INT, N);
            assertMessage(IllegalArgumentException.class, "expects 2 arguments, got 1",
                    () -> ctx.launch(inc, Fixtures.launch(), ints));
            assertMessage(IllegalArgumentException.class,
                    "parameter 'x: inout pointer float' expects pointer float, got array #0 int[100]",
                    () -> ctx.launch(inc, Fixtures.launch(), ints, N));
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            assertMessage(IllegalArgumentException.class, "parameter 'n: int': 1.5 is not an integer",
                    () -> ctx.launch(inc, Fixtures.launch(), x, 1.5));
            assertMessage(IllegalArgumentException.class, "parameter 'n: int': 3000000000 does not fit int",
                    () -> ctx.launch(inc, Fixtures.launch(), x, 3_000_000_000L));
            assertMessage(IllegalArgumentException.class, "must be a device array, got string \"x\"",
                    () -> ctx.launch(inc, Fixtures.launch(), "x", N));
            assertMessage(IllegalArgumentException.class, "a block of 2048 threads exceeds the device limit of 1024",
                    () -> ctx.launch(inc, new LaunchConfig(Dim3.of(1), Dim3.of(2048), 0), x, N));
            assertEquals(0, inc.launchCount());
            stillUsable(ctx, inc);
        }
    }

    @Test
    void indexOutOfRangeAndValuesThatDoNotFitAreRejected() {
        try (EmulatedBackend backend = Fixtures.backend(1, "h100x1");
             ExecutionContext ctx = Fixtures.context(backend)) {
            DeviceArray x = ctx.newArray(ElementType.CHAR, N);
            assertMessage(IndexOutOfBoundsException.class, "index 100 is out of range for array #0 char[100] "
                    + "(valid: 0..99)", () -> ctx.read(x, N));
            assertMessage(IndexOutOfBoundsException.class, "index -1", () -> ctx.write(x, -1, 1));
            assertMessage(IllegalArgumentException.class, "300 does not fit char", () -> ctx.write(x, 3, 300));
            assertEquals((byte) 0, ctx.read(x, 3));
            assertMessage(IllegalArgumentException.class, "dimension 1 of the array is 0",
                    () -> ctx.newArray(ElementType.FLOAT, 4, 0));
        }
    }

    @Test
    void unknownKernelsPoliciesAndDevicesAreNamed() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu")) {
            assertMessage(IllegalArgumentException.class, "valid values: earliest-finish-time, min-transfer-size, "
                    + "minmax-transfer-time, minmin-transfer-time, round-robin, single-gpu, stream-aware",
                    () -> Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("fastest")).close());
            try (ExecutionContext ctx = Fixtures.context(backend)) {
                assertMessage(BackendException.class, "inc",
                        () -> ctx.kernel("nope", Fixtures.MODULE, List.of(Parameter.scalar("n", ElementType.INT))));
                assertThrows(IllegalArgumentException.class, () -> backend.deviceProperties(2));
                stillUsable(ctx, Fixtures.inc(ctx));
            }
        }
    }

    @Test
    void numberOfGpusBeyondTheDevicesIsRefusedSayingHowManyThereAre() {
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu")) {
            assertMessage(IllegalArgumentException.class, "NumberOfGPUs=8 but the emulated backend has 2 devices",
                    () -> Fixtures.context(backend, c -> c.withNumberOfGpus(8)).close());
            try (ExecutionContext ctx = Fixtures.context(backend, c -> c.withNumberOfGpus(1))) {
                assertEquals(1, ctx.deviceCount());
            }
        }
    }

    /** A kernel that faults is reported by a later call, as CUDA reports asynchronous errors; work goes on. */
    @Test
    void aFaultingKernelIsReportedAndTheContextStaysUsable() {
        JavaKernelModule faulty = JavaKernelModule.builder()
                .kernel("overrun", k -> k.pointer(0).getAtIndex(Fixtures.F, k.intArg(1)), KernelCost.fixed(1, 4))
                .build();
        try (EmulatedBackend backend = Fixtures.backend(2, "test-2gpu");
             ExecutionContext ctx = Fixtures.context(backend)) {
            Kernel overrun = ctx.kernel("overrun", faulty, List.of(
                    Parameter.pointer("x", ElementType.FLOAT, Access.READ), Parameter.scalar("i", ElementType.INT)));
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            ctx.launch(overrun, Fixtures.launch(), x, N + 5);
            BackendException e = assertThrows(BackendException.class, ctx::synchronize);
            assertTrue(e.getMessage().contains("overrun"), e.getMessage());
            stillUsable(ctx, Fixtures.inc(ctx));
        }
    }

    private static void stillUsable(ExecutionContext ctx, Kernel inc) {
        DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
        ctx.launch(inc, Fixtures.launch(), y, N);
        assertEquals(1f, (Float) ctx.read(y, N - 1));
    }

    private static <T extends Throwable> void assertMessage(Class<T> type, String fragment,
                                                            org.junit.jupiter.api.function.Executable call) {
        T e = assertThrows(type, call);
        assertTrue(e.getMessage().contains(fragment), "message: " + e.getMessage());
    }
}
