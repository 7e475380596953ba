package org.polygpu.lang.builtins;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.polygpu.backend.ModuleImage;
import org.polygpu.hostfn.NativeLibrary;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.KernelObject;
import org.polygpu.lang.objects.NamespaceObject;
import org.polygpu.lang.parser.HostSignature;
import org.polygpu.lang.parser.NidlFile;
import org.polygpu.sched.Kernel;

import com.oracle.truffle.api.TruffleLanguage;

/**
 * {@code bindall(namespace, file, nidlFile)}: binds every function a NIDL file declares into {@code CU.<namespace>},
 * each under its name without namespaces: host functions of the shared library {@code file} ({@code hostfuncs},
 * {@code chostfuncs} scopes), or kernels of the PTX or CUBIN module {@code file} ({@code kernels},
 * {@code ckernels}). C++ names are mangled as g++ and nvcc do. Everything is bound before the namespace is added, so
 * a failure adds nothing.
 */
final class BindAllBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("bindall", 3, 3,
            "bindall(namespace, file, nidl)", "Binds every function a NIDL file declares into a new namespace of CU: "
            + "hostfuncs/chostfuncs scopes from a shared library, kernels/ckernels scopes from PTX (CUBIN on CUDA "
            + "only); a failure binds nothing.");

    private final PolygpuRuntime runtime;
    private final TruffleLanguage.Env env;
    private final NamespaceObject root;

    BindAllBuiltin(PolygpuRuntime runtime, TruffleLanguage.Env env, NamespaceObject root) {
        this.runtime = runtime;
        this.env = env;
        this.root = root;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        String namespace = GuestValues.string(arguments[0], name(), "namespace").strip();
        String file = GuestValues.string(arguments[1], name(), "file");
        String nidlFile = GuestValues.string(arguments[2], name(), "nidlFile");
        if (!namespace.matches("[A-Za-z_]\\w*")) {
            throw PolygpuException.badValue(name() + ": namespace '" + namespace + "' is not an identifier");
        }
        Object existing = root.lookup(namespace);
        if (existing != null && !(existing instanceof NamespaceObject)) {
            throw PolygpuException.badValue(name() + ": '" + namespace + "' is already a function of CU");
        }
        List<NidlFile.Declaration> declarations;
        try {
            declarations = NidlFile.parse(nidlFile, ModuleFiles.text(env, name(), nidlFile));
        } catch (IllegalArgumentException e) {
            throw PolygpuException.badValue(name() + ": " + e.getMessage());
        }
        Map<String, Object> bound = new LinkedHashMap<>();
        NativeLibrary library = null;
        ModuleImage module = null;
        for (NidlFile.Declaration d : declarations) {
            HostSignature s = d.signature();
            if (d.kernel()) {
                module = module != null ? module : ModuleFiles.module(env, name(), file);
                Kernel kernel = runtime.kernel(symbol(s), module, s.parameters());
                bound.put(s.simpleName(), new KernelObject(runtime, kernel, s.name()));
            } else {
                library = library != null ? library : HostFunctions.open(env, name(), file);
                bound.put(s.simpleName(), HostFunctions.bind(runtime, name(), library, s));
            }
        }
        NamespaceObject target = existing instanceof NamespaceObject ns ? ns : new NamespaceObject(namespace);
        bound.forEach(target::add);
        root.add(namespace, target);
        return target;
    }

    private String symbol(HostSignature s) {
        try {
            return s.symbol();
        } catch (IllegalArgumentException e) {
            throw PolygpuException.badValue(name() + ": " + e.getMessage());
        }
    }
}
