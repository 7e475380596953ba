package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.spi.DeviceSelectionPolicies;

/**
 * Nothing is lost by eviction: a random program of kernels and host accesses over twelve arrays, four times what one
 * device holds, reads back what a host model of it computes, on 1 and 4 devices under every device-selection policy.
 */
class EvictionValuesTest {
    private static final int ARRAYS = 12;
    private static final int STEPS = 120;
    private static final int N = EvictionTest.N;

    static Stream<Arguments> setups() {
        List<Arguments> setups = new ArrayList<>();
        for (String policy : DeviceSelectionPolicies.names()) {
            setups.add(Arguments.of(1, policy));
            setups.add(Arguments.of(4, policy));
        }
        return setups.stream();
    }

    @ParameterizedTest(name = "{0} devices, {1}")
    @MethodSource("setups")
    void everyArrayReadsBackRightAfterEvictions(int devices, String policy) {
        try (EmulatedBackend backend = EvictionTest.backend(devices, 3 * EvictionTest.ARRAY_BYTES);
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy(policy))) {
            Kernel inc = Fixtures.inc(ctx);
            Kernel scale = Fixtures.scale(ctx);
            Kernel add = Fixtures.add(ctx);
            DeviceArray[] x = new DeviceArray[ARRAYS];
            float[][] model = new float[ARRAYS][N];
            for (int i = 0; i < ARRAYS; i++) {
                x[i] = ctx.newArray(ElementType.FLOAT, N);
                EvictionTest.fill(ctx, x[i], i);
                for (int j = 0; j < N; j++) {
                    model[i][j] = i + j;
                }
            }
            SplittableRandom random = new SplittableRandom(11);
            for (int step = 0; step < STEPS; step++) {
                int a = random.nextInt(ARRAYS);
                int b = (a + 1 + random.nextInt(ARRAYS - 1)) % ARRAYS;
                int c = (b + 1 + random.nextInt(ARRAYS - 2)) % ARRAYS;
                c = c == a ? (c + 1) % ARRAYS == b ? (c + 2) % ARRAYS : (c + 1) % ARRAYS : c;
                switch (random.nextInt(5)) {
                    case 0 -> {
                        ctx.launch(inc, Fixtures.launch(), x[a], N);
                        for (int j = 0; j < N; j++) {
                            model[a][j] += 1;
                        }
                    }
                    case 1 -> {
                        ctx.launch(scale, Fixtures.launch(), x[a], x[b], N, 0.5f);
                        for (int j = 0; j < N; j++) {
                            model[b][j] = model[a][j] * 0.5f;
                        }
                    }
                    case 2 -> {
                        ctx.launch(add, Fixtures.launch(), x[a], x[b], x[c], N);
                        for (int j = 0; j < N; j++) {
                            model[c][j] = model[a][j] + model[b][j];
                        }
                    }
                    case 3 -> assertEquals(model[a][step % N], (Float) ctx.read(x[a], step % N));
                    default -> {
                        ctx.write(x[a], step % N, (float) step);
                        model[a][step % N] = step;
                    }
                }
            }
            for (int i = 0; i < ARRAYS; i++) {
                for (int j = 0; j < N; j++) {
                    assertEquals(model[i][j], (Float) ctx.read(x[i], j), "x" + i + "[" + j + "]");
                }
            }
            assertFalse(ctx.evictions().isEmpty(), "the program evicted replicas");
        }
    }
}
