package org.polygpu.sched;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.ptx.ParameterStores;

/**
 * A kernel known to the runtime: its code, the function's name in it, and its signature. The module is loaded on
 * every device in use when the kernel is created, for this kernel alone. Owned by one {@link ExecutionContext} and
 * used from its thread.
 */
public final class Kernel {
    private final String name;
    private final ModuleImage image;
    private final List<Parameter> parameters;
    private final ModuleHandle[] modules;
    private final FunctionHandle[] functions;
    private final int arrayParameterCount;
    private final SymbolWrites symbols;
    private final ReadOnlyParameters readOnly;
    /** The first store or atomic through each read-only pointer parameter that the PTX has, in PTX order. */
    private List<ParameterStores.Store> readOnlyStores = List.of();
    private long launchCount;

    Kernel(String name, ModuleImage image, List<Parameter> parameters, int deviceCount, SymbolWrites symbols) {
        this.name = name;
        this.symbols = symbols;
        this.image = image;
        this.parameters = List.copyOf(parameters);
        this.modules = new ModuleHandle[deviceCount];
        this.functions = new FunctionHandle[deviceCount];
        this.arrayParameterCount = (int) parameters.stream().filter(Parameter::pointer).count();
        this.readOnly = ReadOnlyParameters.of(this.parameters.stream().map(Parameter::name).toList(),
                this.parameters.stream().map(p -> p.pointer() && p.access().isReadOnly()).toList(),
                this.parameters.stream().map(p -> p.type() == null ? 0 : p.type().bytes()).toList());
    }

    /** The function's name as given: a C name, a mangled name, or a name expression such as {@code inc<int>}. */
    public String name() {
        return name;
    }

    public ModuleImage image() {
        return image;
    }

    public List<Parameter> parameters() {
        return parameters;
    }

    /** The pointer parameters declared read-only, which the backend may check stores against. */
    ReadOnlyParameters readOnly() {
        return readOnly;
    }

    /**
     * The first store or atomic through each pointer parameter the signature declares read-only that the kernel's
     * PTX has ({@link ParameterStores}, which may miss a store but never invents one); empty when there is none or
     * no PTX (a Java kernel, a CUBIN without source).
     */
    public List<ParameterStores.Store> readOnlyStores() {
        return readOnlyStores;
    }

    /** Finds {@link #readOnlyStores} in the PTX {@code backend} has for the module, when any pointer is read-only. */
    void findReadOnlyStores(Backend backend) {
        if (readOnly.isEmpty()) {
            return;
        }
        Optional<String> text;
        try {
            text = backend.ptx(modules[0]);
        } catch (BackendException e) {
            return;
        }
        Optional<String> entry = text.flatMap(t -> ParameterStores.entry(t, name));
        if (entry.isEmpty()) {
            return;
        }
        List<ParameterStores.Store> found = new ArrayList<>();
        for (ParameterStores.Store store : ParameterStores.of(text.get(), entry.get())) {
            int i = store.parameter();
            if (readOnly.isReadOnly(i) && !storesThroughReadOnly(i, found)) {
                found.add(store);
            }
        }
        readOnlyStores = List.copyOf(found);
    }

    private static boolean storesThroughReadOnly(int index, List<ParameterStores.Store> stores) {
        return stores.stream().anyMatch(s -> s.parameter() == index);
    }

    int arrayParameterCount() {
        return arrayParameterCount;
    }

    /** Launches so far. */
    public long launchCount() {
        return launchCount;
    }

    void countLaunch() {
        launchCount++;
    }

    int deviceCount() {
        return modules.length;
    }

    /**
     * Copies {@code src} into the module's {@code __constant__} or {@code __device__} variable {@code symbol} from byte
     * {@code offset} on, on every device, as {@code cudaMemcpyToSymbol}: launches of this kernel made before do not
     * see it (the write waits for them), launches made after do.
     *
     * @throws org.polygpu.backend.BackendException for an unknown variable or bytes that do not fit in it
     */
    public void writeSymbol(String symbol, long offset, MemorySegment src) {
        symbols.write(this, symbol, offset, src);
    }

    ModuleHandle module(int device) {
        return modules[device];
    }

    FunctionHandle function(int device) {
        return functions[device];
    }

    /** Loads the module on every device in use, so a bad image or function name fails before any launch. */
    void load(Backend backend) {
        for (int d = 0; d < functions.length; d++) {
            modules[d] = backend.loadModule(d, image);
            functions[d] = backend.function(modules[d], name);
        }
    }

    @Override
    public String toString() {
        return name + parameters.toString().replace('[', '(').replace(']', ')');
    }
}
