package org.polygpu.lang.builtins;

import java.util.List;

import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.PolygpuStreams;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.HandleObject;
import org.polygpu.lang.objects.NullObject;
import org.polygpu.sched.UserEvent;
import org.polygpu.sched.UserStream;

/**
 * CUDA's stream and event functions as GrCUDA exposes them: streams and events are created on the current device
 * and passed as the objects {@code cudaStreamCreate()} and {@code cudaEventCreate()} return. A kernel launched on a
 * stream ({@code k(grid, block, stream)}) still waits for what its arguments depend on; events and waits order work
 * further, as in CUDA. {@code cudaStreamAttachMemAsync}, {@code cudaMemPrefetchAsync} and {@code cudaMemAdvise}
 * check their arguments and have no other effect: polygpu keeps explicit replicas coherent and copies each
 * computation's arrays to its device itself, so there is no managed memory to attach, prefetch or advise.
 */
final class StreamApiBuiltins {
    private StreamApiBuiltins() {
    }

    static List<Builtin> create(PolygpuRuntime runtime) {
        PolygpuStreams streams = runtime.streams();
        return List.of(
                FunctionBuiltin.of("cudaStreamCreate", 0, 0,
                        "cudaStreamCreate()",
                        "A stream of the program's own on the current device; launches on it still wait "
                        + "for what their arguments depend on.",
                        args -> new HandleObject(streams.createStream())),
                FunctionBuiltin.of("cudaStreamSynchronize", 1, 1,
                        "cudaStreamSynchronize(stream)", "Waits for the work on the stream.",
                        args -> {
                        streams.synchronize(stream(args[0], "cudaStreamSynchronize"));
                        return NullObject.INSTANCE;
                    }),
                FunctionBuiltin.of("cudaStreamDestroy", 1, 1,
                        "cudaStreamDestroy(stream)", "Destroys the stream.",
                        args -> {
                        streams.destroy(stream(args[0], "cudaStreamDestroy"));
                        return NullObject.INSTANCE;
                    }),
                FunctionBuiltin.of("cudaEventCreate", 0, 0,
                        "cudaEventCreate()", "An event on the current device.",
                        args -> new HandleObject(streams.createEvent())),
                FunctionBuiltin.of("cudaEventRecord", 2, 2,
                        "cudaEventRecord(event, stream)",
                        "Records the event on the stream (a stream of the event's device).",
                        args -> {
                        streams.record(event(args[0], "cudaEventRecord", "event"), stream(args[1], "cudaEventRecord"));
                        return NullObject.INSTANCE;
                    }),
                FunctionBuiltin.of("cudaEventSynchronize", 1, 1,
                        "cudaEventSynchronize(event)", "Waits until the event has happened.",
                        args -> {
                        streams.synchronize(event(args[0], "cudaEventSynchronize", "event"));
                        return NullObject.INSTANCE;
                    }),
                FunctionBuiltin.of("cudaEventElapsedTime", 2, 2,
                        "cudaEventElapsedTime(start, end)",
                        "Milliseconds between two recorded events (virtual time on the emulator).",
                        args -> (float) streams.elapsedMillis(event(args[0], "cudaEventElapsedTime", "start"),
                                event(args[1], "cudaEventElapsedTime", "end"))),
                FunctionBuiltin.of("cudaEventDestroy", 1, 1,
                        "cudaEventDestroy(event)", "Destroys the event.",
                        args -> {
                        streams.destroy(event(args[0], "cudaEventDestroy", "event"));
                        return NullObject.INSTANCE;
                    }),
                FunctionBuiltin.of("cudaStreamWaitEvent", 2, 3,
                        "cudaStreamWaitEvent(stream, event[, flags])",
                        "Later work on the stream waits for the event; flags must be 0.",
                        args -> {
                        if (args.length == 3) {
                            // CUDA requires the flags to be 0.
                            GuestValues.integer(args[2], "cudaStreamWaitEvent", "flags", 0, 0);
                        }
                        streams.waitFor(stream(args[0], "cudaStreamWaitEvent"), event(args[1], "cudaStreamWaitEvent",
                                "event"));
                        return NullObject.INSTANCE;
                    }),
                FunctionBuiltin.of("cudaStreamAttachMemAsync", 1, 3,
                        "cudaStreamAttachMemAsync([stream, ]array[, flags])",
                        "Checked, no effect: polygpu places arrays itself.",
                        StreamApiBuiltins::attach),
                FunctionBuiltin.of("cudaMemPrefetchAsync", 3, 4,
                        "cudaMemPrefetchAsync(array, bytes, device[, stream])",
                        "Checked, no effect: polygpu moves each computation's arrays to its device "
                        + "itself.",
                        args -> prefetch(runtime, args)),
                FunctionBuiltin.of("cudaMemAdvise", 4, 4,
                        "cudaMemAdvise(array, bytes, advice, device)",
                        "Checked, no effect: polygpu places arrays itself.",
                        args -> advise(runtime, args)));
    }

    /**
     * {@code cudaMemPrefetchAsync(array, bytes, device[, stream])}: checked, then nothing to do, since every
     * computation's arrays are copied to its device before it runs.
     */
    private static Object prefetch(PolygpuRuntime runtime, Object[] args) {
        String function = "cudaMemPrefetchAsync";
        HandleObject.checkAttachable(args[0], function);
        GuestValues.integer(args[1], function, "bytes");
        GuestValues.integer(args[2], function, "device", 0, runtime.deviceCount() - 1);
        if (args.length == 4) {
            stream(args[3], function);
        }
        return NullObject.INSTANCE;
    }

    /** {@code cudaMemAdvise(array, bytes, advice, device)}: checked, then nothing to do (no managed memory). */
    private static Object advise(PolygpuRuntime runtime, Object[] args) {
        String function = "cudaMemAdvise";
        HandleObject.checkAttachable(args[0], function);
        GuestValues.integer(args[1], function, "bytes");
        GuestValues.integer(args[2], function, "advice", 1, 6);
        GuestValues.integer(args[3], function, "device", -1, runtime.deviceCount() - 1);
        return NullObject.INSTANCE;
    }

    /** {@code (array)}, {@code (stream, array)} or {@code (stream, array, flags)}: checked, then nothing to do. */
    private static Object attach(Object[] args) {
        String function = "cudaStreamAttachMemAsync";
        Object array = args.length == 1 ? args[0] : args[1];
        if (args.length > 1) {
            stream(args[0], function);
        }
        if (args.length == 3) {
            // cudaMemAttachGlobal, cudaMemAttachHost, cudaMemAttachSingle.
            int flags = GuestValues.integer(args[2], function, "flags", 1, 4);
            if (flags == 3) {
                throw PolygpuException.wrongType(function, "flags", "1, 2 or 4", "3");
            }
        }
        HandleObject.checkAttachable(array, function);
        return NullObject.INSTANCE;
    }

    private static UserStream stream(Object value, String function) {
        return HandleObject.stream(value, function, "stream");
    }

    private static UserEvent event(Object value, String function, String parameter) {
        return HandleObject.event(value, function, parameter);
    }
}
