package org.polygpu.emulator.calibration;

import org.polygpu.backend.DeviceProperties;
import org.polygpu.emulator.DeviceModel;

/**
 * Where a calibrated model takes the figures that neither the backend reports nor the suite measures (resident
 * threads, blocks, registers and shared memory per SM, the L2 size, the issue rate): the preset of the same
 * architecture generation, by compute capability (7.x: V100, 8.x: A100, 9.x and later: H100; older: V100).
 *
 * @param preset the preset's name, as {@code EmulatedDeviceModel} takes it
 * @param model  the preset
 */
record ReferenceModel(String preset, DeviceModel model) {
    /** The reference for a device of {@code properties}. */
    static ReferenceModel of(DeviceProperties properties) {
        int major = properties.computeMajor();
        String name = major >= 9 ? "h100" : major == 8 ? "a100" : "v100";
        return new ReferenceModel(name, DeviceModel.preset(name));
    }

    /** Why this preset, for the model's {@code source}. */
    String reason(DeviceProperties properties) {
        return "preset " + preset + " (compute capability " + properties.computeCapability() + ")";
    }
}
