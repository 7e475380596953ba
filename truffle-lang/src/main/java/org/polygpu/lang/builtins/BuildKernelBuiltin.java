package org.polygpu.lang.builtins;

import java.util.List;

import org.polygpu.backend.ModuleImage;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.KernelObject;
import org.polygpu.sched.Kernel;

/**
 * {@code buildkernel(source, "name(x: in pointer float, n: sint32)")} or the legacy
 * {@code buildkernel(source, "name", "pointer, const pointer, sint32")}: hands the CUDA C++ source to the runtime, whose
 * backend compiles it with NVRTC for its devices (a template instance such as {@code inc_kernel<int>} is found by its
 * name expression) and loads it on every device.
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
        ModuleImage image = new ModuleImage.CudaSource(source, programName(declared.name()), List.of(),
                List.of(declared.name()));
        Kernel kernel = runtime.kernel(declared.name(), image, declared.parameters());
        return new KernelObject(runtime, kernel, declared.name());
    }

    /** The name NVRTC gives the source in its log: the kernel's name with C++ punctuation replaced. */
    private static String programName(String nameExpression) {
        return nameExpression.replaceAll("[^A-Za-z0-9_]", "_") + ".cu";
    }
}
