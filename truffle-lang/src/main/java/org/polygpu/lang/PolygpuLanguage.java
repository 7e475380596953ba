package org.polygpu.lang;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.graalvm.options.OptionDescriptors;
import org.polygpu.lang.objects.BufferWriter;
import org.polygpu.lang.parser.Parser;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.nodes.Node;

/**
 * The guest language {@code polygpu}: {@code eval} of array expressions ({@code float[1000]}), names
 * ({@code buildkernel}, {@code CU}, {@code ::DeviceArray}) and calls, following GrCUDA's API so that GrCUDA programs
 * port by changing the language id. Needs native access (the runtime binds CUDA and NVRTC through FFM).
 *
 * <p>Code is shared between contexts of one engine: nodes hold no context state (names resolve in the current
 * context's namespace when executed), and the options only shape each context's runtime.
 */
@TruffleLanguage.Registration(id = PolygpuLanguage.ID, name = "polygpu", version = "0.1",
        defaultMimeType = PolygpuLanguage.MIME_TYPE, characterMimeTypes = PolygpuLanguage.MIME_TYPE,
        contextPolicy = TruffleLanguage.ContextPolicy.SHARED)
public final class PolygpuLanguage extends TruffleLanguage<PolygpuContext> {
    public static final String ID = "polygpu";
    public static final String MIME_TYPE = "application/x-polygpu";
    private static final LanguageReference<PolygpuLanguage> REFERENCE = LanguageReference.create(PolygpuLanguage.class);

    /**
     * The writers behind {@code copyTo} into other languages' buffers, one per class of destination (each compiles
     * for its class alone, so a new kind of destination does not deoptimise the others), made when first needed.
     */
    private final Map<Class<?>, CallTarget> bufferWriters = new ConcurrentHashMap<>();

    /** The language instance of the current context. */
    public static PolygpuLanguage get(Node node) {
        return REFERENCE.get(node);
    }

    /** The call target that writes bytes into buffers of {@code destination}'s class ({@link BufferWriter}). */
    public CallTarget bufferWriter(Object destination) {
        return bufferWriters.computeIfAbsent(destination.getClass(), c -> BufferWriter.create(this));
    }

    @Override
    protected PolygpuContext createContext(Env env) {
        return new PolygpuContext(env, ContextOptions.read(env.getOptions()));
    }

    @Override
    protected void initializeContext(PolygpuContext context) {
        context.initialize();
    }

    @Override
    protected void finalizeContext(PolygpuContext context) {
        context.close();
    }

    @Override
    protected CallTarget parse(ParsingRequest request) {
        return Parser.parse(this, request.getSource()).getCallTarget();
    }

    @Override
    protected OptionDescriptors getOptionDescriptors() {
        return PolygpuOptions.descriptors();
    }

    @Override
    protected boolean areOptionsCompatible(org.graalvm.options.OptionValues first,
            org.graalvm.options.OptionValues next) {
        return true;
    }

    @Override
    protected boolean isThreadAccessAllowed(Thread thread, boolean singleThreaded) {
        // Runtime calls are serialised by PolygpuRuntime's lock.
        return true;
    }
}
