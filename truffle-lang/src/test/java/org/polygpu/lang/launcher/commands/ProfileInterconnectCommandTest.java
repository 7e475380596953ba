package org.polygpu.lang.launcher.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.topology.BandwidthMatrixFiles;

/** Where {@code profile-interconnect} saves a matrix when not told, decided by the backend's topology, not its name. */
class ProfileInterconnectCommandTest {
    @Test
    void aMeasuredTopologyGoesWhereTheRuntimeReadsItAndAConfiguredOneBesideIt() {
        OpenedBackend emulated = Backends.open("emulated", BackendOptions.defaults().withEmulatedDevices(1));
        try {
            Path file = BandwidthMatrixFiles.defaultFile();
            assertEquals(file.resolveSibling("bandwidth-emulated.csv"),
                    ProfileInterconnectCommand.defaultOutput(emulated));
            OpenedBackend measured = new OpenedBackend(emulated.backend(), emulated.bandwidth(), "measured", true,
                    "a backend whose topology is this machine's");
            assertEquals(file, ProfileInterconnectCommand.defaultOutput(measured));
        } finally {
            emulated.backend().close();
        }
    }
}
