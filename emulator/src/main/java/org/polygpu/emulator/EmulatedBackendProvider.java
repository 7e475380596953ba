package org.polygpu.emulator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.config.ByteSize;
import org.polygpu.nvrtc.KernelCache;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.BandwidthMatrixLoader;
import org.polygpu.topology.ClusterTopology;

/**
 * Provides the emulated backend as {@code Backend=emulated}, always usable, last in {@code auto}'s order. Options:
 * {@code EmulatedDevices} (default {@value #DEFAULT_DEVICES}), {@code EmulatedTopology} (a preset name, a CSV path or a
 * cluster such as {@code 4xh100x8}, {@link ClusterTopology}; default {@value #DEFAULT_TOPOLOGY}), {@code EmulatedDeviceModel} (V100, A100, H100 or the path of a device-model file,
 * {@link DeviceModel#resolve}; default V100),
 * {@code EmulatedDeviceMemory} (every device's memory instead of the model's) and
 * {@code EmulatedExecution} ({@code full} or {@code sampled}, {@link EmulatedBackendBuilder#execution}). The
 * emulated links carry the topology's bandwidths as written, each direction as listed, so that profiling them gives
 * the file back; the scheduler's bandwidth matrix is the same topology as the policies read it (floored to whole
 * GB/s, directions averaged), as in GrCUDA.
 * It also reads {@code NvrtcLibrary}, which another part owns, for compiling CUDA source.
 */
public final class EmulatedBackendProvider implements BackendProvider {
    static final int DEFAULT_DEVICES = 4;
    static final String DEFAULT_TOPOLOGY = "v100x8";
    static final String DEFAULT_MODEL = "V100";

    /** The provider {@code ServiceLoader} instantiates. */
    public EmulatedBackendProvider() {
    }

    @Override
    public String name() {
        return "emulated";
    }

    /**
     * A model name that names no model, a topology that cannot be read and more devices than the topology has fail
     * whatever the backend (the topology is read only when one of them is set).
     */
    @Override
    public void check(BackendOptions options) {
        options.emulatedDeviceModel().ifPresent(DeviceModel::resolve);
        if (options.emulatedDevices() != 0 || options.emulatedTopology().isPresent()) {
            devices(options.emulatedDevices(), BandwidthMatrixLoader.resolveAsWritten(
                    options.emulatedTopology().orElse(DEFAULT_TOPOLOGY)));
        }
    }

    @Override
    public Availability probe(BackendOptions options) {
        return new Availability(true, "the emulator runs everywhere");
    }

    @Override
    public int priority() {
        return 1000;
    }

    @Override
    public OpenedBackend open(BackendOptions options) {
        String topologyName = options.emulatedTopology().orElse(DEFAULT_TOPOLOGY);
        BandwidthMatrix links = BandwidthMatrixLoader.resolveAsWritten(topologyName);
        int devices = devices(options.emulatedDevices(), links);
        DeviceModel model = DeviceModel.resolve(options.emulatedDeviceModel().orElse(DEFAULT_MODEL));
        if (options.emulatedDeviceMemory() != 0) {
            model = model.withTotalMemory(options.emulatedDeviceMemory());
        }
        EmulatedBackendBuilder builder = EmulatedBackend.builder().devices(devices).topology(links).model(model)
                .nvrtcLibrary(options.nvrtcLibrary().map(Object::toString).orElse(null))
                .kernelCache(KernelCache.of(options.kernelCache())).execution(options.emulatedExecution())
                .memoryModel(options.memoryModel());
        Optional<ClusterTopology> cluster = Files.exists(Path.of(topologyName)) ? Optional.empty()
                : ClusterTopology.ofName(topologyName);
        cluster.ifPresent(builder::cluster);
        EmulatedBackend backend = builder.build();
        BandwidthMatrix floored = BandwidthMatrixLoader.resolve(topologyName);
        BandwidthMatrix policies = devices == floored.gpuCount() ? floored : floored.restrictedTo(devices);
        String memory = options.emulatedDeviceMemory() == 0 ? ""
                : " with " + ByteSize.format(model.totalMemory()) + " of memory each";
        String network = cluster.map(c -> "; " + c.nodes() + " nodes joined by " + c.network().describe())
                .orElse("");
        return new OpenedBackend(backend, policies, topologyName, false, notice(devices, model, topologyName,
                links.gpuCount()) + memory + network + "; device model: " + model.describe());
    }

    /** What was opened; a topology with more GPUs than emulated says which of them are. */
    static String notice(int devices, DeviceModel model, String topologyName, int topologyGpus) {
        String subset = devices == topologyGpus ? ""
                : String.format(Locale.ROOT, " (GPUs %s of its %d)", devices == 1 ? "0" : "0-" + (devices - 1),
                        topologyGpus);
        return String.format(Locale.ROOT, "using %d emulated %s on topology %s%s", devices, model.name(),
                topologyName, subset);
    }

    /** {@code requested} devices, or the default (at most the topology's) when 0. */
    private static int devices(int requested, BandwidthMatrix topology) {
        if (requested == 0) {
            return Math.min(DEFAULT_DEVICES, topology.gpuCount());
        }
        if (requested > topology.gpuCount()) {
            throw new IllegalArgumentException("invalid value '" + requested + "' for option EmulatedDevices; the "
                    + "topology has " + topology.gpuCount() + " GPUs, so 1.." + topology.gpuCount() + " are valid");
        }
        return requested;
    }
}
