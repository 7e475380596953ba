/**
 * The emulated backend: virtual GPUs with their own memories, streams and events on a deterministic virtual clock,
 * and the PTX interpreter, whose counters and timing inputs are part of the backend's API.
 */
module org.polygpu.emulator {
    requires transitive org.polygpu.runtime;

    exports org.polygpu.emulator;
    exports org.polygpu.emulator.calibration;
    exports org.polygpu.emulator.ptx;
    exports org.polygpu.emulator.timing;

    provides org.polygpu.backend.BackendProvider with org.polygpu.emulator.EmulatedBackendProvider;
    provides org.polygpu.calibration.CalibrationFit with org.polygpu.emulator.calibration.EmulatorCalibrationFit;
}
