package org.polygpu.lang.builtins;

import org.polygpu.backend.ModuleImage;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.KernelObject;
import org.polygpu.sched.Kernel;

import com.oracle.truffle.api.TruffleLanguage;

/**
 * {@code bindkernel(file, "name(x: in pointer float, ...)")} or {@code bindkernel(file, "name", "pointer, sint32")}:
 * loads a compiled kernel from a PTX file, or a {@code .cubin} file, on every device. The name is the symbol in the
 * module (mangled unless the kernel is {@code extern "C"}), or the C++ name of a {@code cxx} signature
 * ({@code "cxx ns::k(x: inout pointer sint32)"}), which is mangled here.
 */
final class BindKernelBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("bindkernel", 2, 3,
            "bindkernel(file, nidl) | bindkernel(file, name, legacy)", "A kernel from a PTX file (CUBIN too on "
            + "CUDA), with its NIDL or legacy signature; \"cxx name(...)\" looks the kernel up by its g++-mangled "
            + "name.");

    private final PolygpuRuntime runtime;
    private final TruffleLanguage.Env env;

    BindKernelBuiltin(PolygpuRuntime runtime, TruffleLanguage.Env env) {
        this.runtime = runtime;
        this.env = env;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        String path = GuestValues.string(arguments[0], name(), "file");
        Signatures.Declared declared = Signatures.declared(name(), arguments);
        ModuleImage image = ModuleFiles.module(env, name(), path);
        Kernel kernel = runtime.kernel(declared.name(), image, declared.parameters());
        return new KernelObject(runtime, kernel, declared.displayName());
    }
}
