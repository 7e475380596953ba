package org.polygpu.lang.builtins;

import java.util.List;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.BuiltinObject;
import org.polygpu.lang.objects.NamespaceObject;

import com.oracle.truffle.api.TruffleLanguage;

/** Builds the root namespace {@code CU}: every builtin function, and {@code CU} itself. */
public final class Builtins {
    private Builtins() {
    }

    public static NamespaceObject rootNamespace(PolygpuRuntime runtime, TruffleLanguage.Env env) {
        NamespaceObject root = new NamespaceObject("CU");
        root.add("CU", root);
        List<Builtin> builtins = List.of(new DeviceArrayBuiltin(runtime), new BuildKernelBuiltin(runtime),
                new BindKernelBuiltin(runtime, env), new GetDevicesBuiltin(runtime), new GetDeviceBuiltin(runtime),
                new GetOptionsBuiltin(runtime), new DeviceSynchronizeBuiltin(runtime),
                new GetDeviceCountBuiltin(runtime), new BindBuiltin(runtime, env),
                new BindAllBuiltin(runtime, env, root), MallocBuiltin.malloc(runtime), MallocBuiltin.managed(runtime),
                new FreeBuiltin(runtime), MemcpyBuiltin.memcpy(runtime), MemcpyBuiltin.memcpyAsync(runtime));
        for (Builtin b : builtins) {
            root.add(b.name(), new BuiltinObject(b));
        }
        root.add("BLAS", BlasNamespace.create(runtime, runtime.options().blasEnabled()));
        addAll(root, DeviceApiBuiltins.create(runtime));
        addAll(root, StreamApiBuiltins.create(runtime));
        UnsupportedFunctions.addTo(root);
        return root;
    }

    private static void addAll(NamespaceObject root, List<Builtin> builtins) {
        for (Builtin b : builtins) {
            root.add(b.name(), new BuiltinObject(b));
        }
    }
}
