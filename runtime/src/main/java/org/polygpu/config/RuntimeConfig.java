package org.polygpu.config;

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
 * @param inputPrefetch         {@code InputPrefetch}: ask the backend to prefetch each kernel's arrays to its device
 *                              before the launch (where memory migrates: CUDA under {@code MemoryModel=managed})
 */
public record RuntimeConfig(ExecutionPolicy executionPolicy, DependencyPolicy dependencyPolicy,
                            RetrieveNewStreamPolicy newStreamPolicy, RetrieveParentStreamPolicy parentStreamPolicy,
                            String deviceSelectionPolicy, int numberOfGpus, double dataThreshold, boolean recordDag,
                            boolean recordTimeline, boolean inputPrefetch) {
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

    /**
     * async, with-const, reuse, multigpu-disjoint, minmax-transfer-time, all GPUs, threshold 0.1, no logs, no input
     * prefetch.
     */
    public static RuntimeConfig defaults() {
        return new RuntimeConfig(ExecutionPolicy.ASYNC, DependencyPolicy.WITH_CONST, RetrieveNewStreamPolicy.REUSE,
                RetrieveParentStreamPolicy.MULTIGPU_DISJOINT, "minmax-transfer-time", 0, 0.1, false, false,
                false);
    }

    public RuntimeConfig withExecutionPolicy(ExecutionPolicy value) {
        return new RuntimeConfig(value, dependencyPolicy, newStreamPolicy, parentStreamPolicy, deviceSelectionPolicy,
                numberOfGpus, dataThreshold, recordDag, recordTimeline, inputPrefetch);
    }

    public RuntimeConfig withDependencyPolicy(DependencyPolicy value) {
        return new RuntimeConfig(executionPolicy, value, newStreamPolicy, parentStreamPolicy, deviceSelectionPolicy,
                numberOfGpus, dataThreshold, recordDag, recordTimeline, inputPrefetch);
    }

    public RuntimeConfig withNewStreamPolicy(RetrieveNewStreamPolicy value) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, value, parentStreamPolicy, deviceSelectionPolicy,
                numberOfGpus, dataThreshold, recordDag, recordTimeline, inputPrefetch);
    }

    public RuntimeConfig withParentStreamPolicy(RetrieveParentStreamPolicy value) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, value, deviceSelectionPolicy,
                numberOfGpus, dataThreshold, recordDag, recordTimeline, inputPrefetch);
    }

    /** A copy using the policy registered as {@code name}. */
    public RuntimeConfig withDeviceSelectionPolicy(String name) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, parentStreamPolicy, name,
                numberOfGpus, dataThreshold, recordDag, recordTimeline, inputPrefetch);
    }

    public RuntimeConfig withNumberOfGpus(int value) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, parentStreamPolicy,
                deviceSelectionPolicy, value, dataThreshold, recordDag, recordTimeline, inputPrefetch);
    }

    public RuntimeConfig withDataThreshold(double value) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, parentStreamPolicy,
                deviceSelectionPolicy, numberOfGpus, value, recordDag, recordTimeline, inputPrefetch);
    }

    /** A copy that keeps the DAG log and/or the backend's timeline. */
    public RuntimeConfig withRecording(boolean dag, boolean timeline) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, parentStreamPolicy,
                deviceSelectionPolicy, numberOfGpus, dataThreshold, dag, timeline, inputPrefetch);
    }

    public RuntimeConfig withInputPrefetch(boolean value) {
        return new RuntimeConfig(executionPolicy, dependencyPolicy, newStreamPolicy, parentStreamPolicy,
                deviceSelectionPolicy, numberOfGpus, dataThreshold, recordDag, recordTimeline, value);
    }
}
