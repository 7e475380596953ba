package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.PolygpuRuntime.CompiledKernel;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.KernelObject;
import org.polygpu.sched.Kernel;

/**
 * {@code buildkernel(source, "name(x: in pointer float, n: sint32)")} or the legacy
 * {@code buildkernel(source, "name", "pointer, const pointer, sint32")}: compiles CUDA C++ with NVRTC (a template
 * instance such as {@code inc_kernel<int>} resolves to its lowered name) and loads it on every device.
 */
final class BuildKernelBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("buildkernel", 2, 3);

    private final PolygpuRuntime runtime;

    BuildKernelBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        String source = GuestValues.string(arguments[0], name(), "source");
        Signatures.Declared declared = Signatures.declared(name(), arguments);
        CompiledKernel compiled = runtime.compile(source, declared.name());
        Kernel kernel = runtime.kernel(compiled.loweredName(), compiled.image(), declared.parameters());
        return new KernelObject(runtime, kernel, declared.name(), source, compiled.ptx());
    }
}
