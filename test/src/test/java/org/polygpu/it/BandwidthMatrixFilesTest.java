package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.topology.BandwidthMatrixFiles;
import org.polygpu.topology.BandwidthMatrixLoader;
import org.polygpu.topology.BandwidthMatrixWriter;
import org.polygpu.topology.InterconnectProfiler;

/** Where a real machine's matrix comes from, exercised with an emulated backend standing in for the GPUs. */
class BandwidthMatrixFilesTest {
    private static final InterconnectProfiler.Settings FAST = new InterconnectProfiler.Settings(1 << 16, 0, 1);

    @TempDir
    Path dir;

    private static EmulatedBackend gpus(int n) {
        return EmulatedBackend.builder().devices(n).topology(BandwidthMatrixLoader.preset("test-2gpu"))
                .model(DeviceModel.V100).build();
    }

    @Test
    void withoutAnyMatrixItMeasuresOnceAndSavesForTheNextRun() {
        Path saved = dir.resolve("polygpu/bandwidth.csv");
        try (EmulatedBackend b = gpus(2)) {
            BandwidthMatrixFiles.Choice first = BandwidthMatrixFiles.choose(b, Optional.empty(), Map.of(), saved, FAST);
            assertEquals(BandwidthMatrixLoader.preset("test-2gpu"), first.matrix());
            assertTrue(first.source().startsWith("measured now in "), first.source());
            assertTrue(first.source().endsWith("saved to " + saved), first.source());
            BandwidthMatrixFiles.Choice second = BandwidthMatrixFiles.choose(b, Optional.empty(), Map.of(), saved,
                    FAST);
            assertEquals(saved.toString(), second.source());
            assertEquals(first.matrix(), second.matrix());
        }
    }

    @Test
    void theOptionWinsOverTheVariableAndTheSavedFile() throws IOException {
        Path file = dir.resolve("mine.csv");
        BandwidthMatrixWriter.write(BandwidthMatrixWriter.toCsv(BandwidthMatrixLoader.preset("a100x8")), file);
        try (EmulatedBackend b = gpus(2)) {
            BandwidthMatrixFiles.Choice c = BandwidthMatrixFiles.choose(b, Optional.of(file.toString()),
                    Map.of("POLYGPU_BANDWIDTH", "h100x8"), dir.resolve("none.csv"), FAST);
            assertEquals(file.toString(), c.source());
            assertEquals(BandwidthMatrixLoader.preset("a100x8").restrictedTo(2), c.matrix());
            BandwidthMatrixFiles.Choice v = BandwidthMatrixFiles.choose(b, Optional.empty(),
                    Map.of("POLYGPU_BANDWIDTH", "h100x8"), dir.resolve("none.csv"), FAST);
            assertEquals(BandwidthMatrixLoader.preset("h100x8").restrictedTo(2), v.matrix());
        }
        assertFalse(Files.exists(dir.resolve("none.csv")), "nothing was measured");
    }

    @Test
    void aMalformedConfiguredFileIsAnErrorNamingItAndTheLine() throws IOException {
        Path file = dir.resolve("bad.csv");
        Files.writeString(file, "From,To,Bandwidth\n-1,0,12\n0,0,fast\n");
        try (EmulatedBackend b = gpus(1)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BandwidthMatrixFiles
                    .choose(b, Optional.of(file.toString()), Map.of(), dir.resolve("x.csv"), FAST));
            assertEquals(file + ", line 3: Bandwidth must be a number of GB/s, found 'fast' (from option "
                    + "BandwidthMatrix)", e.getMessage());
        }
    }

    @Test
    void aMissingConfiguredFileIsAnErrorNamingIt() {
        try (EmulatedBackend b = gpus(1)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BandwidthMatrixFiles
                    .choose(b, Optional.empty(), Map.of("POLYGPU_BANDWIDTH", "/nonexistent/bw.csv"),
                            dir.resolve("x.csv"), FAST));
            assertTrue(e.getMessage().startsWith("bandwidth matrix '/nonexistent/bw.csv' is neither an existing file "
                    + "nor a preset"), e.getMessage());
            assertTrue(e.getMessage().endsWith("(from POLYGPU_BANDWIDTH)"), e.getMessage());
        }
    }

    @Test
    void aConfiguredMatrixForFewerGpusIsAnError() {
        try (EmulatedBackend b = gpus(2)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BandwidthMatrixFiles
                    .choose(b, Optional.of("h100x1"), Map.of(), dir.resolve("x.csv"), FAST));
            assertEquals("the bandwidth matrix h100x1 (option BandwidthMatrix) describes 1 GPU but 2 are used; "
                    + "measure this machine with `polygpu profile-interconnect --out h100x1`", e.getMessage());
        }
    }

    @Test
    void aSavedMatrixThatNoLongerFitsIsMeasuredAgain() throws IOException {
        Path saved = dir.resolve("bandwidth.csv");
        Files.writeString(saved, "From,To,Bandwidth\n-1,0,12\n0,0,100\n");
        try (EmulatedBackend b = gpus(2)) {
            BandwidthMatrixFiles.Choice c = BandwidthMatrixFiles.choose(b, Optional.empty(), Map.of(), saved, FAST);
            assertTrue(c.source().startsWith(saved + " describes only 1 GPU; measured now"), c.source());
            assertEquals(BandwidthMatrixLoader.preset("test-2gpu"), BandwidthMatrixLoader.load(saved));
        }
    }

    @Test
    void unmeasuredGivesTheUniformPlaceholder() {
        try (EmulatedBackend b = gpus(2)) {
            BandwidthMatrixFiles.Choice c = BandwidthMatrixFiles.choose(b, Optional.of("unmeasured"),
                    Map.of(), dir.resolve("x.csv"), FAST);
            assertEquals(1, c.matrix().bandwidth(0, 1));
            assertEquals(1, c.matrix().bandwidth(2, 0));
            assertEquals(0, c.matrix().bandwidth(2, 2));
            assertEquals("unmeasured (uniform 1 GB/s placeholder)", c.source());
        }
    }
}
