package org.polygpu.config;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.polygpu.sched.spi.DeviceSelectionPolicies;

/**
 * The scheduler's options, read once when a runtime starts and never changed after.
 *
 * @param executionPolicy       {@code ExecutionPolicy}
 * @param dependencyPolicy      {@code DependencyPolicy}
 * @param newStreamPolicy       {@code RetrieveNewStreamPolicy}
 * @param parentStreamPolicy    {@code RetrieveParentStreamPolicy}
 * @param deviceSelectionPolicy {@code DeviceSelectionPolicy}, the registry name of a policy
 * @param numberOfGpus          {@code NumberOfGPUs}: devices to use, 0 for all the backend has
 * @param dataThreshold         {@code DataThreshold}, in [0, 1]
 * @param recordDag             keep a log of every computation and edge for the DAG export
 * @param recordTimeline        have the backend record the timeline for the trace export
 */
public record RuntimeConfig(ExecutionPolicy executionPolicy, DependencyPolicy dependencyPolicy,
                            RetrieveNewStreamPolicy newStreamPolicy, RetrieveParentStreamPolicy parentStreamPolicy,
                            String deviceSelectionPolicy, int numberOfGpus, double dataThreshold, boolean recordDag,
                            boolean recordTimeline) {
    /** The option names {@link #fromOptions} understands. */
    public static final Set<String> OPTION_NAMES = Set.of("ExecutionPolicy", "DependencyPolicy",
            "RetrieveNewStreamPolicy", "RetrieveParentStreamPolicy", "DeviceSelectionPolicy", "NumberOfGPUs",
            "DataThreshold", "RecordDag", "RecordTimeline");

    public RuntimeConfig {
        if (executionPolicy == null || dependencyPolicy == null || newStreamPolicy == null
                || parentStreamPolicy == null || deviceSelectionPolicy == null) {
            throw new IllegalArgumentException("every policy must be set");
        }
        if (numberOfGpus < 0) {
            throw new IllegalArgumentException("NumberOfGPUs must be at least 0 (0 = all), got " + numberOfGpus);
        }
        if (!(dataThreshold >= 0 && dataThreshold <= 1)) {
            throw new IllegalArgumentException("DataThreshold must be in [0, 1], got " + dataThreshold);
        }
    }

    /** async, with-const, reuse, multigpu-disjoint, minmax-transfer-time, all GPUs, threshold 0.1, no logs. */
    public static RuntimeConfig defaults() {
        return new RuntimeConfig(ExecutionPolicy.ASYNC, DependencyPolicy.WITH_CONST, RetrieveNewStreamPolicy.REUSE,
                RetrieveParentStreamPolicy.MULTIGPU_DISJOINT, "minmax-transfer-time", 0, 0.1, false, false);
    }

    public RuntimeConfig withExecutionPolicy(ExecutionPolicy value) {
        return new RuntimeConfig(value, dependencyPolicy, newStreamPolicy, parentStreamPolicy, deviceSelectionPolicy,
                numberOfGpus, dataThreshold, recordDag, recordTimeline);
    }

    public RuntimeConfig withDependencyPolicy(DependencyPolicy value) {
        return new RuntimeConfig(executionPolicy, value, newStreamPolicy, parentStreamPolicy, deviceSelectionPolicy,
                numberOfGpus, dataThreshold, recordDag, recordTimeline);
    }

    public RuntimeConfig withNewStreamPolicy(RetrieveNewStreamPolicy value) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, value, parentStreamPolicy, deviceSelectionPolicy,
                numberOfGpus, dataThreshold, recordDag, recordTimeline);
    }

    public RuntimeConfig withParentStreamPolicy(RetrieveParentStreamPolicy value) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, value, deviceSelectionPolicy,
                numberOfGpus, dataThreshold, recordDag, recordTimeline);
    }

    /** A copy using the policy registered as {@code name}. */
    public RuntimeConfig withDeviceSelectionPolicy(String name) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, parentStreamPolicy, name,
                numberOfGpus, dataThreshold, recordDag, recordTimeline);
    }

    public RuntimeConfig withNumberOfGpus(int value) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, parentStreamPolicy,
                deviceSelectionPolicy, value, dataThreshold, recordDag, recordTimeline);
    }

    public RuntimeConfig withDataThreshold(double value) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, parentStreamPolicy,
                deviceSelectionPolicy, numberOfGpus, value, recordDag, recordTimeline);
    }

    /** A copy that keeps the DAG log and/or the backend's timeline. */
    public RuntimeConfig withRecording(boolean dag, boolean timeline) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, parentStreamPolicy,
                deviceSelectionPolicy, numberOfGpus, dataThreshold, dag, timeline);
    }

    /**
     * The defaults overridden by {@code options} (name → value as text).
     *
     * @throws IllegalArgumentException for an unknown option or a bad value, listing what is valid
     */
    public static RuntimeConfig fromOptions(Map<String, String> options) {
        RuntimeConfig c = defaults();
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(options).entrySet()) {
            c = c.with(e.getKey(), e.getValue());
        }
        return c;
    }

    /** A copy with one option changed. */
    public RuntimeConfig with(String option, String value) {
        return switch (option) {
            case "ExecutionPolicy" -> new RuntimeConfig(OptionValue.parse(ExecutionPolicy.class, option, value),
                    dependencyPolicy, newStreamPolicy, parentStreamPolicy, deviceSelectionPolicy, numberOfGpus,
                    dataThreshold, recordDag, recordTimeline);
            case "DependencyPolicy" -> new RuntimeConfig(executionPolicy,
                    OptionValue.parse(DependencyPolicy.class, option, value), newStreamPolicy, parentStreamPolicy,
                    deviceSelectionPolicy, numberOfGpus, dataThreshold, recordDag, recordTimeline);
            case "RetrieveNewStreamPolicy" -> new RuntimeConfig(executionPolicy, dependencyPolicy,
                    OptionValue.parse(RetrieveNewStreamPolicy.class, option, value), parentStreamPolicy,
                    deviceSelectionPolicy, numberOfGpus, dataThreshold, recordDag, recordTimeline);
            case "RetrieveParentStreamPolicy" -> new RuntimeConfig(executionPolicy, dependencyPolicy,
                    newStreamPolicy, OptionValue.parse(RetrieveParentStreamPolicy.class, option, value),
                    deviceSelectionPolicy, numberOfGpus, dataThreshold, recordDag, recordTimeline);
            case "DeviceSelectionPolicy" -> new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy,
                    parentStreamPolicy, checkPolicyName(value), numberOfGpus, dataThreshold, recordDag,
                    recordTimeline);
            case "NumberOfGPUs" -> new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy,
                    parentStreamPolicy, deviceSelectionPolicy, parseInt(option, value), dataThreshold, recordDag,
                    recordTimeline);
            case "DataThreshold" -> new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy,
                    parentStreamPolicy, deviceSelectionPolicy, numberOfGpus, parseDouble(option, value), recordDag,
                    recordTimeline);
            case "RecordDag" -> new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy,
                    parentStreamPolicy, deviceSelectionPolicy, numberOfGpus, dataThreshold,
                    parseBoolean(option, value), recordTimeline);
            case "RecordTimeline" -> new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy,
                    parentStreamPolicy, deviceSelectionPolicy, numberOfGpus, dataThreshold, recordDag,
                    parseBoolean(option, value));
            default -> throw new IllegalArgumentException("unknown option '" + option + "'; valid options: "
                    + String.join(", ", new TreeSet<>(OPTION_NAMES)));
        };
    }

    private static String checkPolicyName(String value) {
        if (!DeviceSelectionPolicies.names().contains(value)) {
            throw new IllegalArgumentException("invalid value '" + value + "' for option DeviceSelectionPolicy;"
                    + " valid values: " + String.join(", ", DeviceSelectionPolicies.names()));
        }
        return value;
    }

    private static int parseInt(String option, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid value '" + value + "' for option " + option
                    + "; expected an integer", e);
        }
    }

    private static double parseDouble(String option, String value) {
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid value '" + value + "' for option " + option
                    + "; expected a number", e);
        }
    }

    private static boolean parseBoolean(String option, String value) {
        return switch (value.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("invalid value '" + value + "' for option " + option
                    + "; valid values: true, false");
        };
    }
}
