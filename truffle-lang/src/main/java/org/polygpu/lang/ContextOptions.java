package org.polygpu.lang;

import static org.polygpu.lang.PolygpuOptions.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.graalvm.options.OptionDescriptor;
import org.graalvm.options.OptionDescriptors;
import org.graalvm.options.OptionKey;
import org.graalvm.options.OptionValues;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.ClusterOptions;
import org.polygpu.config.ByteSize;
import org.polygpu.config.OptionValue;
import org.polygpu.config.RuntimeConfig;

/**
 * The options of one context (or one command), read once from typed option values and immutable after.
 *
 * @param runtime        the scheduler's configuration; the exports and timers turn on the recording they need
 * @param backend        {@code Backend}: {@code auto} or a provider's name
 * @param backendOptions what backend providers read
 * @param exportDag      {@code ExportDAG}: the prefix of the DOT file written at close, if any
 * @param exportTrace    {@code ExportTrace}: the trace file written at close, if any
 * @param shown          every option by name without the {@code polygpu.} prefix, as {@code getoptions()} shows it:
 *                       as strings, as GrCUDA shows them (enums as their option value)
 * @param notices        lines to show once when the context starts: the options set that have no effect
 * @param blasEnabled    {@code CuBLASEnabled}: whether the {@code BLAS} namespace's functions run
 * @param cluster        {@code Cluster}, {@code ClusterTimeout} and {@code ClusterCudaAware}: whether the devices
 *                       span an MPI job
 */
public record ContextOptions(RuntimeConfig runtime, String backend, BackendOptions backendOptions,
                             Optional<Path> exportDag, Optional<Path> exportTrace, Map<String, String> shown,
                             List<String> notices, boolean blasEnabled, ClusterOptions cluster) {
    private static final String PREFIX = PolygpuLanguage.ID + ".";

    public ContextOptions {
        shown = Collections.unmodifiableMap(new LinkedHashMap<>(shown));
        notices = List.copyOf(notices);
    }

    /** Reads every option from {@code values} (already parsed and checked by the options' types). */
    public static ContextOptions read(OptionValues values) {
        // GrCUDA's ExportDAG is "false" when unset.
        Optional<Path> exportDag = text(values, ExportDAG).filter(v -> !v.equals("false")).map(Path::of);
        Optional<Path> exportTrace = text(values, ExportTrace).map(Path::of);
        RuntimeConfig runtime = RuntimeConfig.defaults()
                .withExecutionPolicy(values.get(ExecutionPolicy))
                .withDependencyPolicy(values.get(DependencyPolicy))
                .withNewStreamPolicy(values.get(RetrieveNewStreamPolicy))
                .withParentStreamPolicy(values.get(RetrieveParentStreamPolicy))
                .withDeviceSelectionPolicy(values.get(DeviceSelectionPolicy))
                .withNumberOfGpus(values.get(NumberOfGPUs))
                .withDataThreshold(values.get(DataThreshold))
                .withRecording(exportDag.isPresent(),
                        exportTrace.isPresent() || values.get(EnableComputationTimers))
                .withInputPrefetch(values.get(InputPrefetch));
        BackendOptions backendOptions = new BackendOptions(values.get(NumberOfGPUs), values.get(MemoryModel),
                text(values, BandwidthMatrix), text(values, NvrtcLibrary).map(Path::of),
                values.hasBeenSet(EmulatedDevices) ? values.get(EmulatedDevices) : 0,
                text(values, EmulatedTopology), text(values, EmulatedDeviceModel),
                text(values, EmulatedDeviceMemory).map(v -> ByteSize.parse("EmulatedDeviceMemory", v)).orElse(0L),
                values.get(EmulatedExecution),
                values.get(KernelCache) ? Optional.of(text(values, KernelCacheDirectory).map(Path::of)
                        .orElseGet(org.polygpu.nvrtc.KernelCache::defaultDirectory)) : Optional.empty());
        Map<String, String> shown = new LinkedHashMap<>();
        for (OptionDescriptor d : values.getDescriptors()) {
            Object v = values.get(d.getKey());
            shown.put(d.getName().substring(PREFIX.length()),
                    v instanceof OptionValue o ? o.optionValue() : String.valueOf(v));
        }
        return new ContextOptions(runtime, values.get(Backend), backendOptions, exportDag, exportTrace, shown,
                GrcudaOptions.notices(values), values.get(GrcudaOptions.CuBLASEnabled),
                new ClusterOptions(values.get(Cluster), Duration.ofSeconds(values.get(ClusterTimeout)),
                        values.get(ClusterCudaAware)));
    }

    /**
     * Parses options given as text by short name (a command line's {@code --polygpu.Name=value}), with the same
     * types and checks as a polyglot context.
     *
     * @throws IllegalArgumentException for an unknown option or a bad value, saying which and what is valid
     */
    public static ContextOptions parse(Map<String, String> options) {
        OptionDescriptors descriptors = PolygpuOptions.descriptors();
        Map<OptionKey<?>, Object> parsed = new HashMap<>();
        options.forEach((name, value) -> {
            OptionDescriptor d = descriptors.get(PREFIX + name);
            if (d == null) {
                throw new IllegalArgumentException("unknown option '" + PREFIX + name + "'; `polygpu --help` lists "
                        + "the options");
            }
            parsed.put(d.getKey(), d.getKey().getType().convert(value));
        });
        return read(new OptionValues() {
            @Override
            public OptionDescriptors getDescriptors() {
                return descriptors;
            }

            @Override
            @SuppressWarnings("unchecked")
            public <T> T get(OptionKey<T> key) {
                return parsed.containsKey(key) ? (T) parsed.get(key) : key.getDefaultValue();
            }

            @Override
            public boolean hasBeenSet(OptionKey<?> key) {
                return parsed.containsKey(key);
            }
        });
    }

    /** The value of a text option, unless it is empty (unset). */
    private static Optional<String> text(OptionValues values, OptionKey<String> key) {
        String v = values.get(key).strip();
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }
}
