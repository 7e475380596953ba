package org.polygpu.lang.builtins;

import java.util.Arrays;
import java.util.List;

import org.polygpu.backend.ModuleImage;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.KernelObject;
import org.polygpu.lang.parser.SignatureParser;
import org.polygpu.sched.Kernel;

/**
 * {@code buildkernel(source, "name(x: in pointer float, n: sint32)"[, options])} or the legacy
 * {@code buildkernel(source, "name", "pointer, const pointer, sint32"[, options])}: hands the CUDA C++ source to the
 * runtime, whose backend compiles it with NVRTC for its devices (a template instance such as {@code inc_kernel<int>}
 * is found by its name expression) and loads it on every device. The options ({@link CompileOptions}) go to NVRTC.
 */
final class BuildKernelBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("buildkernel", 2, 4,
            "buildkernel(code, nidl[, options]) | buildkernel(code, name, legacy[, options])", "Compiles CUDA C++ "
            + "source with NVRTC and returns the kernel the signature names; options are NVRTC options, as a list "
            + "or one string (\"-DN=4 --use_fast_math\"). Parameters declared in/out/inout give the DAG its "
            + "dependencies.");

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
        // A NIDL signature is one argument, a legacy one two (name and list); the options, if any, follow.
        boolean nidl = arguments.length == 2
                || SignatureParser.isNidl(GuestValues.string(arguments[1], name(), "signature"));
        int signatureEnd = nidl ? 2 : 3;
        if (arguments.length > signatureEnd + 1) {
            throw PolygpuException.arity(name(), "2 or 3 (source, signature[, options]), or 3 or 4 with a legacy "
                    + "signature,", arguments.length);
        }
        Signatures.Declared declared = Signatures.declared(name(), Arrays.copyOf(arguments,
                Math.min(arguments.length, signatureEnd)));
        List<String> options = arguments.length > signatureEnd ? CompileOptions.of(arguments[signatureEnd], name())
                : List.of();
        ModuleImage image = new ModuleImage.CudaSource(source, programName(declared.displayName()), options,
                declared.mangled() ? List.of() : List.of(declared.name()));
        Kernel kernel = runtime.kernel(declared.name(), image, declared.parameters());
        return new KernelObject(runtime, kernel, declared.displayName());
    }

    /** The name NVRTC gives the source in its log: the kernel's name with C++ punctuation replaced. */
    private static String programName(String nameExpression) {
        return nameExpression.replaceAll("[^A-Za-z0-9_]", "_") + ".cu";
    }
}
