package org.polygpu.lang.builtins;

import org.polygpu.blas.BlasFunction;
import org.polygpu.blas.BlasFunctions;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.BlasFunctionObject;
import org.polygpu.lang.objects.NamespaceObject;

/** The namespace {@code BLAS}: every function of {@link BlasFunctions} under its cuBLAS name. */
final class BlasNamespace {
    private BlasNamespace() {
    }

    static NamespaceObject create(PolygpuRuntime runtime) {
        NamespaceObject blas = new NamespaceObject("BLAS");
        for (BlasFunction f : BlasFunctions.all()) {
            blas.add(f.name(), new BlasFunctionObject(runtime, f));
        }
        return blas;
    }
}
