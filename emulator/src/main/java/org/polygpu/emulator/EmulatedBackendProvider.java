package org.polygpu.emulator;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * Provides the emulated backend as {@code Backend=emulated}, always usable, last in {@code auto}'s order. Options:
 * {@code EmulatedDevices} (default {@value #DEFAULT_DEVICES}), {@code EmulatedTopology} (a preset name or a CSV path,
 * default {@value #DEFAULT_TOPOLOGY}) and {@code EmulatedDeviceModel} (V100, A100, H100; default V100). The
 * scheduler's bandwidth matrix is the emulated topology itself. It also reads {@code NvrtcLibrary}, which another
 * part owns, for compiling CUDA source.
 */
public final class EmulatedBackendProvider implements BackendProvider {
    static final int DEFAULT_DEVICES = 4;
    static final String DEFAULT_TOPOLOGY = "v100x8";

    @Override
    public String name() {
        return "emulated";
    }

    @Override
    public Set<String> optionNames() {
        return Set.of("EmulatedDevices", "EmulatedTopology", "EmulatedDeviceModel");
    }

    @Override
    public Availability probe(Map<String, String> options) {
        return new Availability(true, "the emulator runs everywhere");
    }

    @Override
    public int priority() {
        return 1000;
    }

    @Override
    public OpenedBackend open(Map<String, String> options) {
        String topologyName = options.getOrDefault("EmulatedTopology", DEFAULT_TOPOLOGY);
        BandwidthMatrix topology = BandwidthMatrixLoader.resolve(topologyName);
        int devices = devices(options.get("EmulatedDevices"), topology);
        DeviceModel model = DeviceModel.preset(options.getOrDefault("EmulatedDeviceModel", "V100"));
        EmulatedBackend backend = EmulatedBackend.builder().devices(devices).topology(topology).model(model)
                .nvrtcLibrary(options.get("NvrtcLibrary")).build();
        String notice = String.format(Locale.ROOT, "using %d emulated %s on topology %s", devices, model.name(),
                topologyName);
        return new OpenedBackend(backend, backend.topology(), topologyName, false, notice);
    }

    private static int devices(String value, BandwidthMatrix topology) {
        if (value == null) {
            return Math.min(DEFAULT_DEVICES, topology.gpuCount());
        }
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid value '" + value + "' for option EmulatedDevices; expected "
                    + "an integer in 1.." + topology.gpuCount(), e);
        }
        if (n < 1 || n > topology.gpuCount()) {
            throw new IllegalArgumentException("invalid value '" + value + "' for option EmulatedDevices; the "
                    + "topology has " + topology.gpuCount() + " GPUs, so 1.." + topology.gpuCount() + " are valid");
        }
        return n;
    }
}
