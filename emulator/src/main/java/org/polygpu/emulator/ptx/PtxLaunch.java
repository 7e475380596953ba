package org.polygpu.emulator.ptx;

import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.polygpu.backend.LaunchConfig;

/**
 * Everything one execution of a kernel needs.
 *
 * @param module             the parsed module
 * @param kernel             the entry to run
 * @param config             grid, block and dynamic shared memory
 * @param params             the kernel parameter buffer ({@link PtxParameterBlock#pack})
 * @param memory             the device's allocations
 * @param variables          device address of each module variable ({@link PtxModule#variables()})
 * @param instructionBudget  thread-instructions after which the launch is stopped as runaway
 * @param multiprocessors    the device's SM count, for {@code %nsmid} and {@code %smid}
 * @param output             receives what the kernel printed ({@code printf}), once, when it has printed anything
 */
public record PtxLaunch(PtxModule module, String kernel, LaunchConfig config, byte[] params, GlobalMemory memory,
                        Map<String, Long> variables, long instructionBudget, int multiprocessors,
                        Consumer<String> output) {
    /** A launch whose printed output is dropped. */
    public PtxLaunch(PtxModule module, String kernel, LaunchConfig config, byte[] params, GlobalMemory memory,
                     Map<String, Long> variables, long instructionBudget, int multiprocessors) {
        this(module, kernel, config, params, memory, variables, instructionBudget, multiprocessors, text -> { });
    }

    public PtxLaunch {
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(memory, "memory");
        variables = Map.copyOf(variables);
        if (instructionBudget < 1) {
            throw new IllegalArgumentException("instructionBudget must be positive, got " + instructionBudget);
        }
        if (multiprocessors < 1) {
            throw new IllegalArgumentException("multiprocessors must be positive, got " + multiprocessors);
        }
    }
}
