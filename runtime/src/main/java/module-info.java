/**
 * polygpu's scheduler core: arrays and their coherence, the DAG, the execution context, the backend and
 * device-selection SPIs, NVRTC, topologies and exports. Plain Java: no Truffle or polyglot types.
 */
module org.polygpu.runtime {
    exports org.polygpu.array;
    exports org.polygpu.backend;
    exports org.polygpu.blas;
    exports org.polygpu.calibration;
    exports org.polygpu.config;
    exports org.polygpu.dag;
    exports org.polygpu.export;
    exports org.polygpu.hostfn;
    exports org.polygpu.mangling;
    exports org.polygpu.sched;
    exports org.polygpu.sched.spi;
    exports org.polygpu.ptx;
    exports org.polygpu.topology;
    // Both backends compile with NVRTC and the launcher reports its version. A qualified export would name modules
    // that depend on this one, which javac cannot see when it compiles this one.
    exports org.polygpu.nvrtc;

    uses org.polygpu.backend.BackendProvider;
    uses org.polygpu.calibration.CalibrationFit;
    uses org.polygpu.backend.ClusterProvider;
    uses org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
}
