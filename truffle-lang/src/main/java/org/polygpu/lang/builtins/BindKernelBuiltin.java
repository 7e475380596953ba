package org.polygpu.lang.builtins;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.polygpu.backend.ModuleImage;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.KernelObject;
import org.polygpu.sched.Kernel;

import com.oracle.truffle.api.TruffleFile;
import com.oracle.truffle.api.TruffleLanguage;

/**
 * {@code bindkernel(file, "name(x: in pointer float, ...)")} or {@code bindkernel(file, "name", "pointer, sint32")}:
 * loads a compiled kernel from a PTX file, or a {@code .cubin} file, on every device. The name is the symbol in the
 * module (mangled unless the kernel is {@code extern "C"}).
 */
final class BindKernelBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("bindkernel", 2, 3);

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
        byte[] bytes;
        try {
            TruffleFile file = env.getPublicTruffleFile(path);
            bytes = file.readAllBytes();
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            throw PolygpuException.badValue(name() + ": cannot read " + path + ": " + e.getMessage());
        }
        boolean cubin = path.endsWith(".cubin");
        ModuleImage image = cubin ? new ModuleImage.Cubin(bytes, "from " + path)
                : new ModuleImage.Ptx(new String(bytes, StandardCharsets.UTF_8));
        Kernel kernel = runtime.kernel(declared.name(), image, declared.parameters());
        return new KernelObject(runtime, kernel, declared.name());
    }
}
