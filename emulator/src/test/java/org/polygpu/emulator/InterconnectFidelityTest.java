package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.topology.BandwidthMatrixLoader;
import org.polygpu.topology.InterconnectProfile;
import org.polygpu.topology.InterconnectProfiler;

/**
 * The emulated links carry a topology file's bandwidths as written: profiling an emulated 8×V100 opened from the
 * CSV (as {@code profile-interconnect --polygpu.EmulatedDevices=8 --polygpu.EmulatedTopology=FILE} does) gives back
 * every off-diagonal entry of the file within 1%, while the scheduler's matrix keeps GrCUDA's floor.
 */
class InterconnectFidelityTest {
    private static final String V100X8 = "v100x8-nvlink-hybrid-cube-mesh.csv";

    @TempDir
    Path dir;

    private Path topologyFile() throws IOException {
        try (InputStream in = BandwidthMatrixLoader.class.getResourceAsStream("presets/" + V100X8)) {
            Path file = dir.resolve(V100X8);
            Files.write(file, in.readAllBytes());
            return file;
        }
    }

    @Test
    void profilingTheEmulatedTopologyReproducesEveryOffDiagonalEntryOfTheFile() throws IOException {
        Path file = topologyFile();
        BackendOptions options = BackendOptions.defaults().withEmulatedDevices(8).withEmulatedTopology(file.toString());
        OpenedBackend opened = new EmulatedBackendProvider().open(options);
        try {
            assertEquals("using 8 emulated " + DeviceModel.V100.name() + " on topology " + file + "; device model: "
                    + DeviceModel.V100.describe(), opened.notice());
            assertEquals(BandwidthMatrixLoader.load(file), opened.bandwidth(), "the policies see the floored matrix");
            InterconnectProfile profile = new InterconnectProfiler(opened.backend(),
                    new InterconnectProfiler.Settings(1 << 20, 0, 1)).profile(InterconnectProfiler.Progress.NONE);
            int checked = 0;
            for (String row : Files.readAllLines(file, StandardCharsets.UTF_8).subList(1, 73)) {
                String[] cells = row.split(",");
                int from = Integer.parseInt(cells[0]);
                int to = Integer.parseInt(cells[1]);
                double written = Double.parseDouble(cells[2]);
                if (from == to) {
                    continue;
                }
                double got = profile.bandwidth(from, to);
                assertEquals(written, got, written * 0.01, row);
                checked++;
            }
            assertEquals(8 + 56, checked, "every host link and GPU pair");
            assertEquals(11.9556, profile.bandwidth(-1, 0), 0.12, "not the floored 11");
        } finally {
            opened.backend().close();
        }
    }

    @Test
    void aTopologyWithMoreGpusThanEmulatedSaysWhichWereTaken() {
        OpenedBackend opened = new EmulatedBackendProvider().open(BackendOptions.defaults().withEmulatedDevices(3)
                .withEmulatedTopology("v100x8"));
        try {
            assertEquals("using 3 emulated " + DeviceModel.V100.name() + " on topology v100x8 (GPUs 0-2 of its 8)"
                    + "; device model: preset v100, published specifications (Tesla V100 datasheet, Volta architecture "
                    + "whitepaper, 2017)", opened.notice());
            assertEquals(3, opened.bandwidth().gpuCount());
            assertEquals(24.0, opened.bandwidth().bandwidth(0, 1), "floored for the policies");
            assertEquals(3, opened.backend().deviceCount());
        } finally {
            opened.backend().close();
        }
        assertEquals("using 1 emulated " + DeviceModel.V100.name() + " on topology t (GPUs 0 of its 2)",
                EmulatedBackendProvider.notice(1, DeviceModel.V100, "t", 2));
    }
}
