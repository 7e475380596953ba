package org.polygpu.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class BandwidthMatrixLoaderTest {
    /** The golden case of the paper's repository: floored, GPU block averaged, host last, host-host 0. */
    private static final double[][] GOLDEN_2GPU = {{30, 45, 10}, {45, 60, 20}, {10, 20, 0}};

    private static final String HEADER = "From,To,Bandwidth\n";

    @Test
    void test2gpuPresetLoadsAsTheGoldenMatrix() {
        assertArrayEquals(GOLDEN_2GPU, BandwidthMatrixLoader.preset("test-2gpu").toArray());
    }

    @Test
    void test2gpuFileTextParsesAsTheGoldenMatrix() throws IOException {
        assertArrayEquals(GOLDEN_2GPU, BandwidthMatrixLoader.parse(presetText("test-2gpu.csv"), "t").toArray());
    }

    /** As written: no floor and each direction kept; the other direction fills in for a link listed one way. */
    @Test
    void resolveAsWrittenKeepsFractionsAndDirections(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("w.csv");
        Files.writeString(file, HEADER + "-1,0,11.96\n0,-1,12.5\n-1,1,11.5\n0,1,8.51\n1,0,8.69\n0,0,383.9\n"
                + "1,1,357.2\n");
        assertArrayEquals(new double[][] {{383.9, 8.51, 12.5}, {8.69, 357.2, 11.5}, {11.96, 11.5, 0}},
                BandwidthMatrixLoader.resolveAsWritten(file.toString()).toArray());
        assertArrayEquals(new double[][] {{383, 8, 11.5}, {8, 357, 11}, {11.5, 11, 0}},
                BandwidthMatrixLoader.resolve(file.toString()).toArray(), "floored, then directions averaged");
        assertEquals(24.2384853055984, BandwidthMatrixLoader.resolveAsWritten("v100x8").bandwidth(0, 1));
    }

    @Test
    void loadReadsAFileAndResolveAcceptsPathsAndPresetNames(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("m.csv");
        Files.writeString(file, presetText("test-2gpu.csv"));
        assertArrayEquals(GOLDEN_2GPU, BandwidthMatrixLoader.load(file).toArray());
        assertArrayEquals(GOLDEN_2GPU, BandwidthMatrixLoader.resolve(file.toString()).toArray());
        assertArrayEquals(GOLDEN_2GPU, BandwidthMatrixLoader.resolve("test-2gpu").toArray());
    }

    @Test
    void v100PresetHasEightGpusSymmetricWithHostLast() {
        BandwidthMatrix m = BandwidthMatrixLoader.preset("v100x8-nvlink-hybrid-cube-mesh");
        assertEquals(8, m.gpuCount());
        assertEquals(8, m.hostIndex());
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 8; j++) {
                assertEquals(m.bandwidth(i, j), m.bandwidth(j, i), "GPU block symmetric at " + i + "," + j);
            }
            // The measured host links are all just under 12 GB/s, floored to 11.
            assertEquals(11, m.bandwidth(i, 8));
            assertEquals(11, m.bandwidth(8, i));
        }
        assertEquals(0, m.bandwidth(8, 8));
        // 0-3 is a double NVLink (~48 GB/s both ways), 0-1 a single one (~24), 0-4 goes over PCIe (~8).
        assertEquals(48, m.bandwidth(0, 3));
        assertEquals(24, m.bandwidth(0, 1));
        assertEquals(8, m.bandwidth(0, 4));
        assertEquals(m, BandwidthMatrixLoader.preset("v100x8"));
    }

    @Test
    void v100RestrictedToTwoGpusKeepsTheirLinksAndTheHost() {
        BandwidthMatrix m = BandwidthMatrixLoader.preset("v100x8").restrictedTo(2);
        BandwidthMatrix full = BandwidthMatrixLoader.preset("v100x8");
        assertEquals(2, m.gpuCount());
        assertArrayEquals(new double[][] {
            {full.bandwidth(0, 0), full.bandwidth(0, 1), full.bandwidth(0, 8)},
            {full.bandwidth(1, 0), full.bandwidth(1, 1), full.bandwidth(1, 8)},
            {full.bandwidth(8, 0), full.bandwidth(8, 1), 0},
        }, m.toArray());
        assertEquals(24, m.bandwidth(0, 1));
    }

    @Test
    void everyPresetLoadsUnderEveryName() {
        List<String> names = BandwidthMatrixLoader.presetNames();
        assertTrue(names.containsAll(List.of("v100x8-nvlink-hybrid-cube-mesh", "a100x8-nvswitch", "h100x8-nvswitch",
                "h100x1-pcie5", "test-2gpu", "v100x8", "a100x8", "h100x8", "h100x1")), names.toString());
        for (String name : names) {
            BandwidthMatrix m = BandwidthMatrixLoader.preset(name);
            assertEquals(name.startsWith("h100x1") ? 1 : name.equals("test-2gpu") ? 2 : 8, m.gpuCount(), name);
        }
    }

    // A host row in both directions is averaged; a GPU pair listed one way only uses that way; values are floored.
    @Test
    void hostBothWaysAveragedAndOneWayGpuPairsUsed() {
        String csv = HEADER + "-1,0,10.9\n0,-1,20.2\n-1,1,7\n0,0,100\n1,1,100\n1,0,33.7\n";
        assertArrayEquals(new double[][] {{100, 33, 15}, {33, 100, 7}, {15, 7, 0}},
                BandwidthMatrixLoader.parse(csv, "t").toArray());
    }

    @Test
    void crlfLineEndingsAndTrailingBlankLinesAreAccepted() {
        String csv = "From,To,Bandwidth\r\n-1,0,10\r\n-1,1,20\r\n0,0,30\r\n0,1,40\r\n1,0,50\r\n1,1,60\r\n\r\n";
        assertArrayEquals(GOLDEN_2GPU, BandwidthMatrixLoader.parse(csv, "t").toArray());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("empty file", "", 1),
                Arguments.of("header only", "From,To,Bandwidth\n", 1),
                Arguments.of("wrong header", "From,To,GBps\n-1,0,1\n0,0,1\n", 1),
                Arguments.of("two columns", HEADER + "-1,0,1\n0,0\n", 3),
                Arguments.of("four columns", HEADER + "-1,0,1\n0,0,1,2\n", 3),
                Arguments.of("non-numeric bandwidth", HEADER + "-1,0,1\n0,0,fast\n", 3),
                Arguments.of("non-numeric endpoint", HEADER + "-1,0,1\nx,0,1\n", 3),
                Arguments.of("negative bandwidth", HEADER + "-1,0,1\n0,0,-3\n", 3),
                Arguments.of("NaN bandwidth", HEADER + "-1,0,1\n\n0,0,NaN\n", 4),
                Arguments.of("infinite bandwidth", HEADER + "-1,0,1\n0,0,Infinity\n", 3),
                Arguments.of("endpoint below -1", HEADER + "-1,0,1\n-2,0,1\n", 3),
                Arguments.of("host to host", HEADER + "-1,0,1\n-1,-1,1\n", 3),
                Arguments.of("duplicate row", HEADER + "-1,0,1\n0,0,1\n-1,0,2\n", 4));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedInputNamesSourceAndLine(String what, String csv, int line) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BandwidthMatrixLoader.parse(csv, "bad.csv"));
        assertTrue(e.getMessage().startsWith("bad.csv, line " + line + ": "), e.getMessage());
    }

    @Test
    void gpuPairListedInNeitherDirectionIsNamed() {
        String csv = HEADER + "-1,0,1\n-1,1,1\n0,0,1\n1,1,1\n";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BandwidthMatrixLoader.parse(csv, "bad.csv"));
        assertEquals("bad.csv: no bandwidth between GPU 0 and GPU 1; list 0,1 or 1,0", e.getMessage());
    }

    @Test
    void gpuWithoutHostLinkIsNamed() {
        String csv = HEADER + "-1,0,1\n0,0,1\n0,1,1\n1,1,1\n";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BandwidthMatrixLoader.parse(csv, "bad.csv"));
        assertEquals("bad.csv: no bandwidth between the host and GPU 1; list -1,1 or 1,-1", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"no-such-preset", "/no/such/dir/matrix.csv"})
    void unknownPresetOrMissingFileListsThePresets(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BandwidthMatrixLoader.resolve(name));
        assertTrue(e.getMessage().contains(name) && e.getMessage().contains("neither an existing file nor a preset")
                && e.getMessage().contains("v100x8-nvlink-hybrid-cube-mesh, "), e.getMessage());
    }

    @Test
    void unknownPresetNameListsThePresets() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BandwidthMatrixLoader.preset("v200x8"));
        assertTrue(e.getMessage().contains("'v200x8'") && e.getMessage().contains("test-2gpu"), e.getMessage());
    }

    @Test
    void loadOfAMissingFileSaysItDoesNotExist(@TempDir Path dir) {
        Path missing = dir.resolve("gone.csv");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BandwidthMatrixLoader.load(missing));
        assertEquals("bandwidth matrix file " + missing + " does not exist", e.getMessage());
    }

    private static String presetText(String file) throws IOException {
        try (InputStream in = BandwidthMatrixLoader.class.getResourceAsStream("presets/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
