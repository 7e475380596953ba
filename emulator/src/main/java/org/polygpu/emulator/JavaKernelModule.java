package org.polygpu.emulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.polygpu.backend.ModuleImage;

/**
 * A module image of Java kernels, each a body with a declared cost, loadable only by the emulator. It stands in for
 * PTX until the emulator's PTX interpreter exists.
 *
 * <p>Immutable; kernel names keep the order in which they were added.
 */
public final class JavaKernelModule implements ModuleImage {
    private final List<Kernel> kernels;
    private final Map<String, Kernel> byName;

    private JavaKernelModule(List<Kernel> kernels) {
        this.kernels = List.copyOf(kernels);
        this.byName = new HashMap<>();
        for (Kernel k : kernels) {
            byName.put(k.name(), k);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The kernel names, in the order they were added. */
    public List<String> kernelNames() {
        return kernels.stream().map(Kernel::name).toList();
    }

    @Override
    public String description() {
        return "Java kernels " + kernelNames();
    }

    Optional<Kernel> kernel(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** One kernel of the module: its name, body and declared cost. */
    record Kernel(String name, JavaKernel body, KernelCost cost) {
        Kernel {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(cost, "cost");
            if (name.isBlank()) {
                throw new IllegalArgumentException("a kernel needs a name");
            }
        }
    }

    /** Collects kernels; names must be unique and at least one kernel is needed. */
    public static final class Builder {
        private final List<Kernel> kernels = new ArrayList<>();

        private Builder() {
        }

        /** Adds a kernel called {@code name} whose launches run {@code body} and cost {@code cost}. */
        public Builder kernel(String name, JavaKernel body, KernelCost cost) {
            Kernel kernel = new Kernel(name, body, cost);
            for (Kernel k : kernels) {
                if (k.name().equals(name)) {
                    throw new IllegalArgumentException("kernel '" + name + "' is already in the module");
                }
            }
            kernels.add(kernel);
            return this;
        }

        public JavaKernelModule build() {
            if (kernels.isEmpty()) {
                throw new IllegalArgumentException("a Java kernel module needs at least one kernel");
            }
            return new JavaKernelModule(kernels);
        }
    }
}
