package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * GrCUDA's stream and event functions (its CreateStreamTest and CUDAEventTest), on emulated GPUs: a kernel launched
 * on a program stream still depends on its arguments, so results are right with or without the program's events.
 */
class StreamsTest {
    private static final int N = 100;
    private static final int THREADS = 32;
    private static final int BLOCKS = (N + THREADS - 1) / THREADS;

    /** {@code y = x * x}, GrCUDA's square kernel with two arrays. */
    private static final String SQUARE_INTO = """
            extern "C" __global__ void square(float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i] * x[i];
            }
            """;

    /** {@code x += y}. */
    private static final String ADD = """
            extern "C" __global__ void square(float *x, float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = x[i] + y[i];
            }
            """;

    private static Value fn(Context c, String name) {
        return Polyglot.eval(c, name);
    }

    private static Value filled(Context c, double value) {
        Value a = fn(c, "DeviceArray").execute("float", N);
        for (int i = 0; i < N; i++) {
            a.setArrayElement(i, value);
        }
        return a;
    }

    @Test
    void streamsAndEventsAreDistinctNativePointers() {
        try (Context c = Polyglot.context()) {
            Set<Long> handles = new HashSet<>();
            for (int i = 0; i < 8; i++) {
                Value s = fn(c, "cudaStreamCreate").execute();
                Value e = fn(c, "cudaEventCreate").execute();
                assertTrue(s.isNativePointer() && e.isNativePointer());
                handles.add(s.asNativePointer());
                handles.add(e.asNativePointer());
            }
            assertEquals(16, handles.size());
        }
    }

    @Test
    void kernelsOnTwoStreamsSynchronizedOneByOne() {
        Polyglot.assumeNvrtc();
        try (Context c = Polyglot.context()) {
            Value s1 = fn(c, "cudaStreamCreate").execute();
            Value s2 = fn(c, "cudaStreamCreate").execute();
            Value x = filled(c, 2);
            Value y = filled(c, 4);
            Value square = fn(c, "buildkernel").execute(Kernels.SQUARE, "square", "pointer, sint32");
            Value k1 = square.execute(BLOCKS, THREADS, s1).execute(x, N);
            Value k2 = square.execute(BLOCKS, THREADS, 0, s2).execute(y, N);
            assertEquals(1, k1.getMember("stream").asInt() == k2.getMember("stream").asInt() ? 0 : 1,
                    "each launch runs on its own stream");
            fn(c, "cudaStreamSynchronize").execute(s1);
            fn(c, "cudaStreamSynchronize").execute(s2);
            for (int i = 0; i < N; i++) {
                assertEquals(4.0, x.getArrayElement(i).asFloat(), 0.01);
                assertEquals(16.0, y.getArrayElement(i).asFloat(), 0.01);
            }
            fn(c, "cudaStreamDestroy").execute(s1);
            fn(c, "cudaStreamDestroy").execute(s2);
        }
    }

    /** GrCUDA's CUDAEventTest.syncStreamsTest: y = x², then x = y² on another stream after an event. */
    @Test
    void anEventOrdersKernelsOnTwoStreams() {
        Polyglot.assumeNvrtc();
        try (Context c = Polyglot.context()) {
            Value s1 = fn(c, "cudaStreamCreate").execute();
            Value s2 = fn(c, "cudaStreamCreate").execute();
            Value x = filled(c, 2);
            Value y = fn(c, "DeviceArray").execute("float", N);
            Value square = fn(c, "buildkernel").execute(SQUARE_INTO, "square", "pointer, pointer, sint32");
            square.execute(BLOCKS, THREADS, s1).execute(x, y, N);
            Value event = fn(c, "cudaEventCreate").execute();
            fn(c, "cudaEventRecord").execute(event, s1);
            fn(c, "cudaStreamWaitEvent").execute(s2, event);
            square.execute(BLOCKS, THREADS, s2).execute(y, x, N);
            fn(c, "cudaStreamSynchronize").execute(s2);
            fn(c, "cudaEventSynchronize").execute(event);
            for (int i = 0; i < N; i++) {
                assertEquals(16.0, x.getArrayElement(i).asFloat(), 0.01);
                assertEquals(4.0, y.getArrayElement(i).asFloat(), 0.01);
            }
            fn(c, "cudaEventDestroy").execute(event);
        }
    }

    /**
     * GrCUDA's joinComputationsTest without the event: K1 (y = x²) on stream 1 and K2 (z = x²) on stream 2, then K3
     * (y += z) on stream 1 waits for K2 because it reads z, and its launch is a computation of the DAG.
     */
    @Test
    void aKernelOnAProgramStreamWaitsForWhatItsArgumentsDependOn() {
        Polyglot.assumeNvrtc();
        try (Context c = Polyglot.context(Map.of("EmulatedDevices", "2"))) {
            Value s1 = fn(c, "cudaStreamCreate").execute();
            fn(c, "cudaSetDevice").execute(1);
            Value s2 = fn(c, "cudaStreamCreate").execute();
            Value x = filled(c, 2);
            Value y = fn(c, "DeviceArray").execute("float", N);
            Value z = fn(c, "DeviceArray").execute("float", N);
            Value square = fn(c, "buildkernel").execute(SQUARE_INTO, "square", "pointer, pointer, sint32");
            Value add = fn(c, "buildkernel").execute(ADD, "square", "pointer, pointer, sint32");
            square.execute(BLOCKS, THREADS, s1).execute(x, y, N);
            Value k2 = square.execute(BLOCKS, THREADS, s2).execute(x, z, N);
            assertEquals(1, k2.getMember("device").asInt(), "a stream belongs to the device current at its creation");
            add.execute(BLOCKS, THREADS, s1).execute(y, z, N);
            for (int i = 0; i < N; i++) {
                assertEquals(8.0, y.getArrayElement(i).asFloat(), 0.01);
            }
            assertTrue(fn(c, "cudaEventElapsedTime").canExecute());
        }
    }

    /** GrCUDA's StreamAttachTest: arrays attached to streams, many to one and one to many, then synced. */
    @Test
    void arraysAttachToStreamsThatAreThenSynchronizedAndDestroyed() {
        try (Context c = Polyglot.context()) {
            Value shared = fn(c, "cudaStreamCreate").execute();
            Value x = fn(c, "DeviceArray").execute("float", N);
            for (int i = 0; i < 4; i++) {
                fn(c, "cudaStreamAttachMemAsync").execute(shared, fn(c, "DeviceArray").execute("float", N));
                Value own = fn(c, "cudaStreamCreate").execute();
                fn(c, "cudaStreamAttachMemAsync").execute(own, x, 4);
                fn(c, "cudaStreamSynchronize").execute(own);
                fn(c, "cudaStreamDestroy").execute(own);
            }
            fn(c, "cudaStreamSynchronize").execute(shared);
            fn(c, "cudaStreamDestroy").execute(shared);
            PolyglotException destroyed = assertThrows(PolyglotException.class,
                    () -> fn(c, "cudaStreamDestroy").execute(shared));
            assertEquals("stream 1 of device 0 was destroyed", destroyed.getMessage());
        }
    }

    @Test
    void misuseFailsNamingTheFunctionAndParameter() {
        try (Context c = Polyglot.context(Map.of("EmulatedDevices", "2"))) {
            Value event = fn(c, "cudaEventCreate").execute();
            fn(c, "cudaSetDevice").execute(1);
            Value stream = fn(c, "cudaStreamCreate").execute();
            PolyglotException wrongDevice = assertThrows(PolyglotException.class,
                    () -> fn(c, "cudaEventRecord").execute(event, stream));
            assertEquals("cannot record event 1 of device 0 on stream 2 of device 1: an event is recorded on a "
                    + "stream of its own device", wrongDevice.getMessage());
            PolyglotException notAStream = assertThrows(PolyglotException.class,
                    () -> fn(c, "cudaStreamSynchronize").execute(event));
            assertTrue(notAStream.getMessage().startsWith("cudaStreamSynchronize: argument 'stream' must be a "
                    + "stream from cudaStreamCreate(), got"), notAStream.getMessage());
            Value x = fn(c, "DeviceArray").execute("float", N);
            fn(c, "cudaStreamAttachMemAsync").execute(stream, x);
            fn(c, "cudaStreamAttachMemAsync").execute(x);
            PolyglotException flags = assertThrows(PolyglotException.class,
                    () -> fn(c, "cudaStreamAttachMemAsync").execute(stream, x, 3));
            assertEquals("cudaStreamAttachMemAsync: argument 'flags' must be 1, 2 or 4, got 3", flags.getMessage());
            assertTrue(fn(c, "cudaMemPrefetchAsync").execute(x, 4 * N, 1, stream).isNull());
            PolyglotException device = assertThrows(PolyglotException.class,
                    () -> fn(c, "cudaMemPrefetchAsync").execute(x, 4 * N, 2));
            assertEquals("cudaMemPrefetchAsync: argument 'device' must be an integer in 0..1, got 2",
                    device.getMessage());
        }
    }
}
