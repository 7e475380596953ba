package org.polygpu.lang;

import java.io.PrintWriter;

import org.polygpu.backend.Backends;
import org.polygpu.lang.builtins.Builtins;
import org.polygpu.lang.objects.NamespaceObject;

import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.TruffleLanguage.ContextReference;
import com.oracle.truffle.api.nodes.Node;

/**
 * The state of polygpu in one polyglot context: its options (read once, immutable), the runtime with its backend,
 * and the root namespace {@code CU} that {@code eval} resolves names in.
 *
 * <p>Lifecycle: CREATED (options read and checked) → INITIALIZED (backend opened, namespace built; a failure here
 * fails the context with the reason) → CLOSED (exports written, arrays, streams and backend released).
 */
public final class PolygpuContext {
    private static final ContextReference<PolygpuContext> REFERENCE = ContextReference.create(PolygpuLanguage.class);

    private final TruffleLanguage.Env env;
    private final ContextOptions options;
    private PolygpuRuntime runtime;
    private NamespaceObject root;

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
        runtime = PolygpuRuntime.open(options);
        root = Builtins.rootNamespace(runtime, env);
        PrintWriter err = new PrintWriter(env.err(), true);
        if (options.backend().equals(Backends.AUTO)) {
            err.println(runtime.notice());
        }
        options.notices().forEach(err::println);
    }

    public TruffleLanguage.Env env() {
        return env;
    }

    public ContextOptions options() {
        return options;
    }

    public PolygpuRuntime runtime() {
        return runtime;
    }

    /** The root namespace, {@code CU}. */
    public NamespaceObject root() {
        return root;
    }

    void close() {
        if (runtime != null) {
            PolygpuRuntime r = runtime;
            runtime = null;
            r.close();
        }
    }
}
