package org.polygpu.lang;

import org.polygpu.backend.LaunchConfig;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.UserEvent;
import org.polygpu.sched.UserStream;
import org.polygpu.sched.UserStreams;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

/**
 * The language's gate to the program's streams, events and current device (CUDA's runtime API as GrCUDA exposes
 * it): each method makes one call to the runtime's {@link UserStreams} through {@link PolygpuRuntime}'s gate, so
 * it holds the same lock and turns the same user errors into guest errors. Stateless.
 */
public final class PolygpuStreams {
    private final PolygpuRuntime runtime;
    private final ExecutionContext context;
    private final UserStreams streams;

    PolygpuStreams(PolygpuRuntime runtime, ExecutionContext context) {
        this.runtime = runtime;
        this.context = context;
        this.streams = context.streams();
    }

    @TruffleBoundary
    public int currentDevice() {
        return runtime.call(streams::currentDevice);
    }

    @TruffleBoundary
    public void setCurrentDevice(int device) {
        run(() -> streams.setCurrentDevice(device));
    }

    /** {@code cudaDeviceReset}: waits for all work and destroys the current device's streams and events. */
    @TruffleBoundary
    public void resetCurrentDevice() {
        run(streams::resetCurrentDevice);
    }

    @TruffleBoundary
    public UserStream createStream() {
        return runtime.call(streams::createStream);
    }

    @TruffleBoundary
    public void synchronize(UserStream stream) {
        run(() -> streams.synchronize(stream));
    }

    @TruffleBoundary
    public void destroy(UserStream stream) {
        run(() -> streams.destroy(stream));
    }

    @TruffleBoundary
    public UserEvent createEvent() {
        return runtime.call(streams::createEvent);
    }

    @TruffleBoundary
    public void record(UserEvent event, UserStream stream) {
        run(() -> streams.record(event, stream));
    }

    @TruffleBoundary
    public void waitFor(UserStream stream, UserEvent event) {
        run(() -> streams.waitFor(stream, event));
    }

    @TruffleBoundary
    public void synchronize(UserEvent event) {
        run(() -> streams.synchronize(event));
    }

    @TruffleBoundary
    public double elapsedMillis(UserEvent start, UserEvent end) {
        return runtime.call(() -> streams.elapsedMillis(start, end));
    }

    @TruffleBoundary
    public void destroy(UserEvent event) {
        run(() -> streams.destroy(event));
    }

    /** Launches {@code kernel} on {@code stream}; the launch still waits for what its arguments depend on. */
    @TruffleBoundary
    public Computation launch(Kernel kernel, LaunchConfig config, UserStream stream, Object[] arguments) {
        return runtime.call(() -> context.launch(kernel, config, stream, arguments));
    }

    private void run(Runnable action) {
        runtime.call(() -> {
            action.run();
            return null;
        });
    }
}
