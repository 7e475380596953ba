package org.polygpu.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The CSV the profiler writes is what the loader reads back. */
class BandwidthMatrixWriterTest {
    @ParameterizedTest
    @ValueSource(strings = {"v100x8", "a100x8", "h100x8", "h100x1", "test-2gpu"})
    void aLoadedMatrixSurvivesTheRoundTrip(String preset) {
        BandwidthMatrix m = BandwidthMatrixLoader.preset(preset);
        assertEquals(m, BandwidthMatrixLoader.parse(BandwidthMatrixWriter.toCsv(m), preset));
    }

    @Test
    void aProfileIsWrittenInBothDirectionsAndLoadedAsTheRuntimeSeesIt() {
        // GPU 0 <-> GPU 1 measured 40 one way and 50 the other: the loader averages to 45, as for test-2gpu.
        InterconnectProfile p = new InterconnectProfile(new double[][] {
            {30, 40, 10}, {50, 60, 20}, {10, 20, 0}}, 4096, 1);
        String csv = BandwidthMatrixWriter.toCsv(p);
        assertEquals("""
                From,To,Bandwidth
                -1,0,10.00
                0,-1,10.00
                0,0,30.00
                0,1,40.00
                -1,1,20.00
                1,-1,20.00
                1,0,50.00
                1,1,60.00
                """, csv);
        assertEquals(BandwidthMatrixLoader.preset("test-2gpu"), p.toMatrix());
    }

    @Test
    void aMeasurementAHairUnderAWholeNumberIsNotFlooredAWholeGigabyteLower() {
        InterconnectProfile p = new InterconnectProfile(new double[][] {{699.9981, 23.9996}, {23.996, 0}}, 4096, 1);
        BandwidthMatrix m = p.toMatrix();
        assertEquals(700, m.bandwidth(0, 0));
        assertEquals(24, m.bandwidth(0, 1)); // 23.9996 and 23.996 are both written "24.00"
    }

    @Test
    void writeCreatesTheDirectoryAndReplacesAnOldFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("a/b/bandwidth.csv");
        BandwidthMatrixWriter.write("old", file);
        BandwidthMatrixWriter.write(BandwidthMatrixWriter.toCsv(BandwidthMatrixLoader.preset("h100x1")), file);
        assertEquals(BandwidthMatrixLoader.preset("h100x1"), BandwidthMatrixLoader.load(file));
        try (var files = Files.list(file.getParent())) {
            assertEquals(1, files.count(), "no temporary file is left behind");
        }
    }

    @Test
    void theProfileKeepsItsOwnCopyAndAddressesTheHostAsMinusOne() {
        double[][] values = {{30, 5}, {7, 0}};
        InterconnectProfile p = new InterconnectProfile(values, 8192, 3);
        values[0][0] = 1;
        assertEquals(30, p.bandwidth(0, 0));
        assertEquals(7, p.bandwidth(-1, 0));
        assertEquals(5, p.bandwidth(0, -1));
        assertTrue(p.toString().contains("8192 bytes"));
    }
}
