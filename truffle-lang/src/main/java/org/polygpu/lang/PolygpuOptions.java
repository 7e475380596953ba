package org.polygpu.lang;

import java.util.function.Function;

import org.graalvm.options.OptionCategory;
import org.graalvm.options.OptionDescriptors;
import org.graalvm.options.OptionKey;
import org.graalvm.options.OptionStability;
import org.graalvm.options.OptionType;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.Backends;
import org.polygpu.config.DependencyPolicy;
import org.polygpu.config.ByteSize;
import org.polygpu.config.EmulatedExecution;
import org.polygpu.config.ExecutionPolicy;
import org.polygpu.config.MemoryModel;
import org.polygpu.config.OptionValue;
import org.polygpu.config.RetrieveNewStreamPolicy;
import org.polygpu.config.RetrieveParentStreamPolicy;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.sched.spi.DeviceSelectionPolicies;

import com.oracle.truffle.api.Option;

/**
 * The language's options, {@code --polygpu.<Name>=value}: each is declared here once, as a typed key named like the
 * option. Every value is parsed and checked by its type when the context is built, whatever the backend (a bad value
 * stops the context with the valid values); {@link ContextOptions#read} reads them once into an immutable record.
 */
@Option.Group(PolygpuLanguage.ID)
public final class PolygpuOptions {
    private static final RuntimeConfig DEFAULTS = RuntimeConfig.defaults();

    @Option(help = "Run launches asynchronously or wait for each.", usageSyntax = "async|sync",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<ExecutionPolicy> ExecutionPolicy = enumKey(DEFAULTS.executionPolicy());

    @Option(help = "With with-const, read-only arguments do not depend on each other.",
            usageSyntax = "with-const|no-const", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<DependencyPolicy> DependencyPolicy = enumKey(DEFAULTS.dependencyPolicy());

    @Option(help = "Reuse a free stream or always create one.", usageSyntax = "reuse|always-new",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<RetrieveNewStreamPolicy> RetrieveNewStreamPolicy = enumKey(DEFAULTS.newStreamPolicy());

    @Option(help = "How a computation may take a parent's stream.",
            usageSyntax = "same-as-parent|disjoint|multigpu-disjoint|multigpu-early-disjoint",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<RetrieveParentStreamPolicy> RetrieveParentStreamPolicy =
            enumKey(DEFAULTS.parentStreamPolicy());

    @Option(help = "How a computation without parents picks its GPU (the policies found on the class path).",
            usageSyntax = "<policy>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> DeviceSelectionPolicy = new OptionKey<>(DEFAULTS.deviceSelectionPolicy(),
            new OptionType<>("DeviceSelectionPolicy", PolygpuOptions::policyName));

    @Option(help = "GPUs to use; 0 uses all the backend has. More than the backend has is an error.",
            usageSyntax = "<int>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Integer> NumberOfGPUs = new OptionKey<>(DEFAULTS.numberOfGpus(),
            integerType("NumberOfGPUs", 0, "0 = all GPUs"));

    @Option(help = "Devices holding at most this fraction of the argument bytes count as holding none.",
            usageSyntax = "[0.0, 1.0]", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Double> DataThreshold = new OptionKey<>(DEFAULTS.dataThreshold(),
            new OptionType<>("DataThreshold", PolygpuOptions::fraction));

    @Option(help = "Interconnect bandwidth CSV (or a preset name) for the policies; default: the backend's.",
            usageSyntax = "<file>|<preset>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> BandwidthMatrix = new OptionKey<>("");

    @Option(help = "Accepted for GrCUDA programs, no effect: under MemoryModel=managed each kernel's arrays are always "
            + "prefetched to its GPU before the launch where not valid there, under explicit they are copied there.",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> InputPrefetch = new OptionKey<>(false);

    @Option(help = "Record the start and end of every kernel and copy (the timeline of ExportTrace).",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> EnableComputationTimers = new OptionKey<>(false);

    @Option(help = "Write the scheduled DAG to <prefix>.dot when the context closes.", usageSyntax = "<prefix>",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> ExportDAG = new OptionKey<>("");

    @Option(help = "Write the timeline as Chrome trace JSON when the context closes.", usageSyntax = "<file>",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> ExportTrace = new OptionKey<>("");

    @Option(help = "Real GPUs (cuda), the emulator, or the first that can run (auto).",
            usageSyntax = "auto|cuda|emulated", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> Backend = new OptionKey<>(Backends.AUTO,
            new OptionType<>("Backend", PolygpuOptions::backendName));

    @Option(help = "Emulated backend only: number of emulated GPUs (default 4, at most the topology's).",
            usageSyntax = "<int>", category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Integer> EmulatedDevices = new OptionKey<>(4,
            integerType("EmulatedDevices", 1, "the emulated GPUs"));

    @Option(help = "Emulated backend only: the interconnect, a preset (v100x8, a100x8, ...) or a CSV file "
            + "(default v100x8).", usageSyntax = "<preset>|<file>", category = OptionCategory.USER,
            stability = OptionStability.STABLE)
    static final OptionKey<String> EmulatedTopology = new OptionKey<>("");

    @Option(help = "Emulated backend only: the GPU model, a preset or a device-model file (default V100; the format "
            + "is in docs/emulator-model.md).", usageSyntax = "V100|A100|H100|<file.json>",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> EmulatedDeviceModel = new OptionKey<>("");

    @Option(help = "Emulated backend only: the memory of every emulated GPU, overriding the model's (16GiB for the "
            + "V100, 40GiB for the A100, 80GiB for the H100), e.g. 64MiB to make arrays larger than a device's "
            + "memory in tests.", usageSyntax = "<bytes>|<n>KiB|<n>MiB|<n>GiB", category = OptionCategory.USER,
            stability = OptionStability.STABLE)
    static final OptionKey<String> EmulatedDeviceMemory = new OptionKey<>("",
            new OptionType<>("EmulatedDeviceMemory", PolygpuOptions::deviceMemory));

    @Option(help = "Emulated backend only: interpret every thread block (full) or a sample of each grid, timed as "
            + "the whole grid, whose outputs cannot be read back (sampled).", usageSyntax = "full|sampled",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<EmulatedExecution> EmulatedExecution =
            enumKey(org.polygpu.config.EmulatedExecution.FULL);

    @Option(help = "Path of libnvrtc.so (default: searched).", usageSyntax = "<file>",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> NvrtcLibrary = new OptionKey<>("");

    @Option(help = "Explicit: one replica per GPU, kept coherent by copies; managed: each array is one managed "
            + "allocation every GPU and the host address, prefetched to each kernel's GPU where needed, so kernels "
            + "may write through const pointers as on GrCUDA (on the emulator: 64 KiB pages that migrate on the link "
            + "model).",
            usageSyntax = "explicit|managed", category = OptionCategory.USER,
            stability = OptionStability.STABLE)
    static final OptionKey<MemoryModel> MemoryModel = enumKey(org.polygpu.config.MemoryModel.EXPLICIT);

    @Option(help = "Keep compiled kernels in a cache on disk, so that a program run again does not recompile them.",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<Boolean> KernelCache = new OptionKey<>(true);

    @Option(help = "Directory of the compiled-kernel cache (default: $POLYGPU_CACHE_DIR, else "
            + "$XDG_CACHE_HOME/polygpu/kernels, else ~/.cache/polygpu/kernels).", usageSyntax = "<dir>",
            category = OptionCategory.USER, stability = OptionStability.STABLE)
    static final OptionKey<String> KernelCacheDirectory = new OptionKey<>("");

    @Option(help = "Spread the devices over an MPI job started by mpirun: rank 0 runs the program, every rank "
            + "contributes its devices (global ids, rank-major) and the other ranks serve rank 0 (mpi); or use this "
            + "process's devices only (none).", usageSyntax = "none|mpi", category = OptionCategory.USER,
            stability = OptionStability.EXPERIMENTAL)
    static final OptionKey<String> Cluster = new OptionKey<>(org.polygpu.backend.Clusters.NONE,
            new OptionType<>("Cluster", org.polygpu.backend.Clusters::check));

    @Option(help = "Under Cluster=mpi: seconds rank 0 waits for a sign of life from another rank before it reports "
            + "that rank as failed and ends the job.", usageSyntax = "<seconds>", category = OptionCategory.USER,
            stability = OptionStability.EXPERIMENTAL)
    static final OptionKey<Integer> ClusterTimeout = new OptionKey<>(5,
            integerType("ClusterTimeout", 1, "seconds"));

    @Option(help = "Under Cluster=mpi: copy between ranks straight from and into device memory where the rank's MPI "
            + "library is CUDA-aware (auto, detected at start on every rank), on every rank (on: a rank with real "
            + "GPUs and an MPI library that is not CUDA-aware refuses to start; emulated devices' memory is host "
            + "memory, which any MPI library reads), or never, staging through pinned host memory (off).",
            usageSyntax = "auto|on|off", category = OptionCategory.USER, stability = OptionStability.EXPERIMENTAL)
    static final OptionKey<org.polygpu.config.ClusterCudaAware> ClusterCudaAware = enumKey(
            org.polygpu.config.ClusterCudaAware.AUTO);

    private PolygpuOptions() {
    }

    /** These options and GrCUDA's that have no effect here ({@link GrcudaOptions}). */
    static OptionDescriptors descriptors() {
        return OptionDescriptors.createUnion(new PolygpuOptionsOptionDescriptors(), GrcudaOptions.descriptors());
    }

    /** A key whose values are the option values of {@code defaultValue}'s enum, listed when one is wrong. */
    private static <E extends Enum<E> & OptionValue> OptionKey<E> enumKey(E defaultValue) {
        Class<E> type = defaultValue.getDeclaringClass();
        String name = type.getSimpleName();
        Function<String, E> parse = v -> OptionValue.parse(type, name, v);
        return new OptionKey<>(defaultValue, new OptionType<>(name, parse));
    }

    private static OptionType<Integer> integerType(String option, int min, String meaning) {
        return new OptionType<>(option, v -> {
            try {
                int n = Integer.parseInt(v.strip());
                if (n >= min) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // Reported below with the valid range.
            }
            throw new IllegalArgumentException("invalid value '" + v + "' for option " + option
                    + "; expected an integer of at least " + min + " (" + meaning + ")");
        });
    }

    private static Double fraction(String v) {
        try {
            double d = Double.parseDouble(v.strip());
            if (d >= 0 && d <= 1) {
                return d;
            }
        } catch (NumberFormatException e) {
            // Reported below with the valid range.
        }
        throw new IllegalArgumentException("invalid value '" + v + "' for option DataThreshold; expected a number "
                + "in [0, 1]");
    }

    /** A size {@link ByteSize} reads, kept as written; empty for the model's own. */
    private static String deviceMemory(String v) {
        if (!v.isBlank()) {
            ByteSize.parse("EmulatedDeviceMemory", v);
        }
        return v;
    }

    private static String policyName(String v) {
        if (!DeviceSelectionPolicies.names().contains(v)) {
            throw new IllegalArgumentException("invalid value '" + v + "' for option DeviceSelectionPolicy; valid "
                    + "values: " + String.join(", ", DeviceSelectionPolicies.names()));
        }
        return v;
    }

    private static String backendName(String v) {
        StringBuilder valid = new StringBuilder(Backends.AUTO);
        for (BackendProvider p : Backends.providers()) {
            if (p.name().equals(v)) {
                return v;
            }
            valid.append(", ").append(p.name());
        }
        if (!v.equals(Backends.AUTO)) {
            throw new IllegalArgumentException("invalid value '" + v + "' for option Backend; valid values: " + valid);
        }
        return v;
    }
}
