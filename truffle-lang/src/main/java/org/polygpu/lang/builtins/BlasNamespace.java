package org.polygpu.lang.builtins;

import org.polygpu.blas.BlasFunction;
import org.polygpu.blas.BlasFunctions;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.BlasFunctionObject;
import org.polygpu.lang.objects.BuiltinObject;
import org.polygpu.lang.objects.NamespaceObject;

/**
 * The namespace {@code BLAS}: every function of {@link BlasFunctions} under its cuBLAS name; with
 * {@code CuBLASEnabled=false} (GrCUDA's switch) the same names, each failing to say that the option disabled it.
 */
final class BlasNamespace {
    private BlasNamespace() {
    }

    static NamespaceObject create(PolygpuRuntime runtime, boolean enabled) {
        NamespaceObject blas = new NamespaceObject("BLAS");
        for (BlasFunction f : BlasFunctions.all()) {
            blas.add(f.name(), enabled ? new BlasFunctionObject(runtime, f) : new BuiltinObject(disabled(f.name())));
        }
        return blas;
    }

    private static Builtin disabled(String name) {
        return FunctionBuiltin.of("BLAS::" + name, 0, BuiltinSignature.VARIADIC, name + "(...)",
                "Disabled by CuBLASEnabled=false.", args -> {
            throw PolygpuException.unsupported("BLAS::" + name + " is disabled: the context was created with "
                    + "--polygpu.CuBLASEnabled=false");
        });
    }
}
