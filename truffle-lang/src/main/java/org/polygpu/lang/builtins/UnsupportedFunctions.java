package org.polygpu.lang.builtins;

import java.util.List;

import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.objects.BuiltinObject;
import org.polygpu.lang.objects.NamespaceObject;

/**
 * GrCUDA's functions that polygpu does not provide: the Map DSL ({@code Map}, {@code shred}), the cuML, cuSPARSE
 * and TensorRT wrappers (namespaces {@code ML}, {@code SPARSE}, {@code TRT}), {@code cudaGetErrorString} and
 * {@code cudaDeviceCanAccessPeer}. They are present under GrCUDA's names
 * so that a program calling one fails saying that it is unsupported, not that the name is unknown; they accept any
 * arguments, since no call can succeed.
 */
final class UnsupportedFunctions {
    private UnsupportedFunctions() {
    }

    /** A library namespace of GrCUDA's, the library's name and the functions GrCUDA registers in it. */
    private record Library(String namespace, String library, List<String> functions) {
    }

    private static final List<Library> LIBRARIES = List.of(
            new Library("ML", "cuML", List.of("cumlDpDbscanFit", "cumlSpDbscanFit")),
            new Library("SPARSE", "cuSPARSE", List.of("cusparseSpMV", "cusparseSgemvi", "cusparseDgemvi",
                    "cusparseCgemvi", "cusparseZgemvi")),
            new Library("TRT", "TensorRT", List.of("createInferRuntime", "deserializeCudaEngine",
                    "destroyInferRuntime", "createExecutionContext", "getBindingIndex", "getMaxBatchSize", "enqueue",
                    "destroyEngine", "destroyExecutionContext")));

    /** Adds the Map DSL's functions and the library namespaces to {@code root}. */
    static void addTo(NamespaceObject root) {
        for (String name : List.of("Map", "shred")) {
            root.add(name, new BuiltinObject(unsupported(name, "GrCUDA's Map DSL")));
        }
        // polygpu reports CUDA errors as exceptions with their C names, so no error code reaches the program.
        root.add("cudaGetErrorString", new BuiltinObject(unsupported("cudaGetErrorString", "CUDA error codes")));
        root.add("cudaDeviceCanAccessPeer", new BuiltinObject(unsupported("cudaDeviceCanAccessPeer",
                "peer-access queries: it copies between devices over the fastest path itself")));
        for (Library l : LIBRARIES) {
            NamespaceObject ns = new NamespaceObject(l.namespace());
            for (String f : l.functions()) {
                ns.add(f, new BuiltinObject(unsupported(l.namespace() + "::" + f, l.library())));
            }
            root.add(l.namespace(), ns);
        }
    }

    private static Builtin unsupported(String name, String what) {
        return FunctionBuiltin.of(name, 0, BuiltinSignature.VARIADIC, name + "(...)",
                "Unsupported: fails saying that polygpu does not provide " + what + ".", args -> {
            throw PolygpuException.unsupported(name + " is not supported: polygpu does not provide " + what
                    + " (docs/grcuda-migration.md lists what it provides)");
        });
    }
}
