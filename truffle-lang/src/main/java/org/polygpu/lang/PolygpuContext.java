package org.polygpu.lang;

import java.io.PrintWriter;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.Backends;
import org.polygpu.backend.Clusters;
import org.polygpu.lang.builtins.Builtins;
import org.polygpu.lang.objects.NamespaceObject;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.TruffleLanguage.ContextReference;
import com.oracle.truffle.api.nodes.Node;

/**
 * The state of polygpu in one polyglot context: its options (read once, immutable), the runtime with its backend,
 * and the root namespace {@code CU} that {@code eval} resolves names in.
 *
 * <p>Lifecycle: CREATED (options read and checked) → INITIALIZED (native access and the backend options checked
 * together; a failure here fails the context with the reason) → OPENED (backend opened, namespace built, on the
 * first {@link #runtime()} or {@link #root()}: a guest that never evaluates polygpu code opens no backend and loads
 * no NVRTC) → CLOSED (exports written, arrays, streams and backend released, if opened; when the context is
 * cancelled, the launches not started are dropped instead of waited for). Opening is thread-safe.
 */
public final class PolygpuContext {
    private static final ContextReference<PolygpuContext> REFERENCE = ContextReference.create(PolygpuLanguage.class);

    private final TruffleLanguage.Env env;
    private final ContextOptions options;
    /** The runtime and namespace once opened; null before (and after close). */
    private volatile Opened opened;
    private boolean closed;

    /** What opening the runtime gives. */
    private record Opened(PolygpuRuntime runtime, NamespaceObject root) {
    }

    PolygpuContext(TruffleLanguage.Env env, ContextOptions options) {
        this.env = env;
        this.options = options;
    }

    /** The context of the polygpu language for the current thread. */
    public static PolygpuContext get(Node node) {
        return REFERENCE.get(node);
    }

    void initialize() {
        if (!env.isNativeAccessAllowed()) {
            throw PolygpuException.badOptions("polygpu needs native access: build the context with "
                    + "allowNativeAccess(true) or allowAllAccess(true)");
        }
        try {
            OptionFiles.check(options);
            Backends.check(options.backend(), options.backendOptions());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw PolygpuException.badOptions(e.getMessage());
        }
        try {
            // Under a cluster, every process but the host's serves the host from here on and never returns.
            Clusters.join(options.cluster(), options.backend(), options.backendOptions());
        } catch (IllegalArgumentException | IllegalStateException | BackendException e) {
            throw PolygpuException.badOptions(e.getMessage());
        }
        if (!options.notices().isEmpty()) {
            PrintWriter err = new PrintWriter(env.err(), true);
            options.notices().forEach(err::println);
        }
    }

    /** The runtime and namespace, opened on first use. */
    private Opened opened() {
        Opened o = opened;
        return o != null ? o : open();
    }

    @TruffleBoundary
    private synchronized Opened open() {
        if (opened != null) {
            return opened;
        }
        if (closed) {
            throw new IllegalStateException("the polygpu context is closed");
        }
        PolygpuRuntime runtime = PolygpuRuntime.open(options);
        if (options.backend().equals(Backends.AUTO)) {
            new PrintWriter(env.err(), true).println(runtime.notice());
        }
        opened = new Opened(runtime, Builtins.rootNamespace(runtime, env));
        return opened;
    }

    public TruffleLanguage.Env env() {
        return env;
    }

    public ContextOptions options() {
        return options;
    }

    /** The runtime, opening the backend the options name on first use. */
    public PolygpuRuntime runtime() {
        return opened().runtime();
    }

    /** The root namespace, {@code CU}, opening the backend the options name on first use. */
    public NamespaceObject root() {
        return opened().root();
    }

    /** Closes the runtime: it waits for the program's work, unless the context is being cancelled. */
    synchronized void close() {
        closed = true;
        Opened o = opened;
        opened = null;
        if (o != null && env.getContext().isCancelling()) {
            o.runtime().cancel();
        } else if (o != null) {
            o.runtime().close();
        }
    }
}
