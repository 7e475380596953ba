package org.polygpu.lang;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.graalvm.options.OptionCategory;
import org.graalvm.options.OptionDescriptors;
import org.graalvm.options.OptionKey;
import org.graalvm.options.OptionStability;
import org.graalvm.options.OptionType;
import org.graalvm.options.OptionValues;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.Backends;
import org.polygpu.config.RuntimeConfig;

import com.oracle.truffle.api.Option;

/**
 * The language's options, {@code --polygpu.<Name>=value}. Each value is checked when the context is built (a bad
 * value stops it with the valid values); the options are read once into an immutable {@link Values} when the
 * context is created and never change after.
 */
@Option.Group(PolygpuLanguage.ID)
public final class PolygpuOptions {
    private static final RuntimeConfig DEFAULTS = RuntimeConfig.defaults();

    @Option(name = "ExecutionPolicy", help = "Run launches asynchronously or wait for each.",
            usageSyntax = "async|sync", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> EXECUTION_POLICY = runtime("ExecutionPolicy",
            DEFAULTS.executionPolicy().optionValue());

    @Option(name = "DependencyPolicy", help = "With with-const, read-only arguments do not depend on each other.",
            usageSyntax = "with-const|no-const", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> DEPENDENCY_POLICY = runtime("DependencyPolicy",
            DEFAULTS.dependencyPolicy().optionValue());

    @Option(name = "RetrieveNewStreamPolicy", help = "Reuse a free stream or always create one.",
            usageSyntax = "reuse|always-new", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> NEW_STREAM_POLICY = runtime("RetrieveNewStreamPolicy",
            DEFAULTS.newStreamPolicy().optionValue());

    @Option(name = "RetrieveParentStreamPolicy", help = "How a computation may take a parent's stream.",
            usageSyntax = "same-as-parent|disjoint|multigpu-disjoint|multigpu-early-disjoint",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> PARENT_STREAM_POLICY = runtime("RetrieveParentStreamPolicy",
            DEFAULTS.parentStreamPolicy().optionValue());

    @Option(name = "DeviceSelectionPolicy", help = "How a computation without parents picks its GPU.",
            usageSyntax = "<policy>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> DEVICE_SELECTION_POLICY = runtime("DeviceSelectionPolicy",
            DEFAULTS.deviceSelectionPolicy());

    @Option(name = "NumberOfGPUs", help = "GPUs to use; 0 uses all the backend has.", usageSyntax = "<int>",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> NUMBER_OF_GPUS = runtime("NumberOfGPUs",
            Integer.toString(DEFAULTS.numberOfGpus()));

    @Option(name = "DataThreshold", help = "Devices holding at most this fraction of the argument bytes count as "
            + "holding none.", usageSyntax = "[0.0, 1.0]", category = OptionCategory.USER,
            stability = OptionStability.STABLE)
    static final OptionKey<String> DATA_THRESHOLD = runtime("DataThreshold",
            Double.toString(DEFAULTS.dataThreshold()));

    @Option(name = "BandwidthMatrix", help = "Interconnect bandwidth CSV (or a preset name) for the policies; "
            + "default: the backend's.", usageSyntax = "<file>|<preset>", category = OptionCategory.USER,
            stability = OptionStability.STABLE)
    static final OptionKey<String> BANDWIDTH_MATRIX = new OptionKey<>("");

    @Option(name = "InputPrefetch", help = "Copy kernel inputs to their device ahead of the launch (always done with "
            + "explicit replicas).", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> INPUT_PREFETCH = new OptionKey<>(false);

    @Option(name = "EnableComputationTimers", help = "Record the start and end of every kernel and copy.",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> COMPUTATION_TIMERS = new OptionKey<>(false);

    @Option(name = "ExportDAG", help = "Write the scheduled DAG to <prefix>.dot when the context closes.",
            usageSyntax = "<prefix>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> EXPORT_DAG = new OptionKey<>("");

    @Option(name = "ExportTrace", help = "Write the timeline as Chrome trace JSON when the context closes.",
            usageSyntax = "<file>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> EXPORT_TRACE = new OptionKey<>("");

    @Option(name = "Backend", help = "Real GPUs (cuda), the emulator, or the first that can run (auto).",
            usageSyntax = "auto|cuda|emulated", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> BACKEND = new OptionKey<>("auto",
            new OptionType<>("Backend", v -> v, PolygpuOptions::checkBackend));

    @Option(name = "EmulatedDevices", help = "Number of emulated GPUs (default 4, at most the topology's).",
            usageSyntax = "<int>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> EMULATED_DEVICES = new OptionKey<>("",
            new OptionType<>("EmulatedDevices", v -> v, PolygpuOptions::checkDeviceCount));

    @Option(name = "EmulatedTopology", help = "Emulated interconnect: a preset (v100x8, a100x8, ...) or a CSV file.",
            usageSyntax = "<preset>|<file>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> EMULATED_TOPOLOGY = new OptionKey<>("");

    @Option(name = "EmulatedDeviceModel", help = "Emulated GPU model.", usageSyntax = "V100|A100|H100",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> EMULATED_DEVICE_MODEL = new OptionKey<>("");

    @Option(name = "NvrtcLibrary", help = "Path of libnvrtc.so (default: searched).", usageSyntax = "<file>",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> NVRTC_LIBRARY = new OptionKey<>("");

    @Option(name = "MemoryModel", help = "Real GPUs: explicit replicas (explicit) or one managed allocation (managed).",
            usageSyntax = "explicit|managed", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> MEMORY_MODEL = new OptionKey<>("explicit");

    /** Options whose values go to {@link RuntimeConfig#fromOptions}. */
    private static final List<String> RUNTIME_OPTIONS = List.of("ExecutionPolicy", "DependencyPolicy",
            "RetrieveNewStreamPolicy", "RetrieveParentStreamPolicy", "DeviceSelectionPolicy", "NumberOfGPUs",
            "DataThreshold");

    private PolygpuOptions() {
    }

    static OptionDescriptors descriptors() {
        return new PolygpuOptionsOptionDescriptors();
    }

    private static OptionKey<String> runtime(String name, String defaultValue) {
        Consumer<String> check = v -> RuntimeConfig.defaults().with(name, v);
        return new OptionKey<>(defaultValue, new OptionType<>(name, v -> v, check));
    }

    private static void checkBackend(String value) {
        StringBuilder valid = new StringBuilder("auto");
        for (BackendProvider p : Backends.providers()) {
            if (p.name().equals(value)) {
                return;
            }
            valid.append(", ").append(p.name());
        }
        if (!value.equals("auto")) {
            throw new IllegalArgumentException("invalid value '" + value + "' for option Backend; valid values: "
                    + valid);
        }
    }

    private static void checkDeviceCount(String value) {
        if (value.isEmpty()) {
            return;
        }
        try {
            if (Integer.parseInt(value.trim()) >= 1) {
                return;
            }
        } catch (NumberFormatException e) {
            // Reported below with the valid values.
        }
        throw new IllegalArgumentException("invalid value '" + value + "' for option EmulatedDevices; expected an "
                + "integer of at least 1");
    }

    /** Every option as read from {@code values}, by name without the {@code polygpu.} prefix. */
    static Values read(OptionValues values) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ExecutionPolicy", values.get(EXECUTION_POLICY));
        m.put("DependencyPolicy", values.get(DEPENDENCY_POLICY));
        m.put("RetrieveNewStreamPolicy", values.get(NEW_STREAM_POLICY));
        m.put("RetrieveParentStreamPolicy", values.get(PARENT_STREAM_POLICY));
        m.put("DeviceSelectionPolicy", values.get(DEVICE_SELECTION_POLICY));
        m.put("NumberOfGPUs", Integer.parseInt(values.get(NUMBER_OF_GPUS).trim()));
        m.put("DataThreshold", Double.parseDouble(values.get(DATA_THRESHOLD).trim()));
        m.put("BandwidthMatrix", values.get(BANDWIDTH_MATRIX));
        m.put("InputPrefetch", values.get(INPUT_PREFETCH));
        m.put("EnableComputationTimers", values.get(COMPUTATION_TIMERS));
        m.put("ExportDAG", values.get(EXPORT_DAG));
        m.put("ExportTrace", values.get(EXPORT_TRACE));
        m.put("Backend", values.get(BACKEND));
        m.put("EmulatedDevices", values.get(EMULATED_DEVICES));
        m.put("EmulatedTopology", values.get(EMULATED_TOPOLOGY));
        m.put("EmulatedDeviceModel", values.get(EMULATED_DEVICE_MODEL));
        m.put("NvrtcLibrary", values.get(NVRTC_LIBRARY));
        m.put("MemoryModel", values.get(MEMORY_MODEL));
        return new Values(m);
    }

    /**
     * The options of one context, immutable.
     *
     * @param all every option by name, in declaration order: strings, {@code Integer} (NumberOfGPUs),
     *            {@code Double} (DataThreshold) and {@code Boolean} values
     */
    public record Values(Map<String, Object> all) {
        public Values {
            all = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(all));
        }

        public String text(String name) {
            return String.valueOf(all.get(name));
        }

        public boolean flag(String name) {
            return Boolean.TRUE.equals(all.get(name));
        }

        /** The scheduler's configuration; exports and timers turn on the recording they need. */
        public RuntimeConfig runtimeConfig() {
            Map<String, String> options = new LinkedHashMap<>();
            for (String name : RUNTIME_OPTIONS) {
                options.put(name, text(name));
            }
            options.put("RecordDag", Boolean.toString(!text("ExportDAG").isEmpty()));
            options.put("RecordTimeline", Boolean.toString(!text("ExportTrace").isEmpty()
                    || flag("EnableComputationTimers")));
            return RuntimeConfig.fromOptions(options);
        }

        /** The options a backend provider may read: every option that is set, by name, as text. */
        public Map<String, String> backendOptions() {
            Map<String, String> options = new LinkedHashMap<>();
            all.forEach((name, value) -> {
                if (!String.valueOf(value).isEmpty()) {
                    options.put(name, String.valueOf(value));
                }
            });
            return options;
        }
    }
}
