package org.polygpu.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.backend.DeviceProperties;

/** The measurements file: what it holds, that it reads back, and that bad files are refused naming the problem. */
class MeasurementsTest {
    private static final DeviceProperties GPU = new DeviceProperties("Some GPU, rev. 2", 9, 0, 80L << 30, 132,
            1_980_000, 1024, 49152, 32);
    private static final Measurements M = new Measurements(GPU, "cuda", "2026-11-28", List.of(
            new Measurement("load", "stride-1", "bytes", 268435456, 91234.5),
            new Measurement("copy-d2d", "4096", "bytes", 4096, 2100.25)));

    @TempDir
    Path dir;

    @Test
    void aFileReadsBackToEqualMeasurements() {
        Path file = dir.resolve("m.measurements.csv");
        M.write(file);
        assertEquals(M, Measurements.read(file));
        assertEquals(91234.5, M.get("load", "stride-1").nanos());
        assertEquals(268435456 / 91234.5, M.get("load", "stride-1").rate());
        assertEquals(List.of(M.rows().get(1)), M.of("copy-d2d"));
    }

    @Test
    void theFileStartsWithTheDeviceThenTheRows() {
        List<String> lines = M.toCsv().lines().toList();
        assertEquals("# polygpu-calibration-1", lines.get(0));
        assertEquals("# device: Some GPU, rev. 2", lines.get(1));
        assertEquals("# multiprocessors: 132", lines.get(4));
        assertEquals("benchmark,parameter,unit,work,nanos", lines.get(11));
        assertEquals("load,stride-1,bytes,2.68435456E8,91234.5", lines.get(12));
    }

    @Test
    void badFilesAndBadRowsAreRefusedSayingWhere() {
        String csv = M.toCsv();
        assertEquals("x: not a measurements file (the first line must be '# polygpu-calibration-1')",
                assertThrows(IllegalArgumentException.class, () -> Measurements.parse("a,b", "x")).getMessage());
        assertEquals("x: the '# clockKhz: ' line is missing", assertThrows(IllegalArgumentException.class,
                () -> Measurements.parse(csv.replace("# clockKhz: 1980000\n", ""), "x")).getMessage());
        assertEquals("x line 14: work and nanos must be numbers, got 'copy-d2d,4096,bytes,4096.0,fast'",
                assertThrows(IllegalArgumentException.class, () -> Measurements.parse(csv.replace("2100.25", "fast"),
                        "x")).getMessage());
        assertEquals("x line 14: copy-d2d 4096: the time must be positive, got -1.0 ns",
                assertThrows(IllegalArgumentException.class, () -> Measurements.parse(csv.replace("2100.25", "-1"),
                        "x")).getMessage());
        assertEquals("two measurements of load stride-1", assertThrows(IllegalArgumentException.class,
                () -> Measurements.parse(csv + "load,stride-1,bytes,1,1\n", "x")).getMessage());
        assertEquals("the measurements lack atomic addresses-1", assertThrows(IllegalArgumentException.class,
                () -> M.get("atomic", "addresses-1")).getMessage());
    }

    @Test
    void settingsAreCheckedAndCopiesRunFrom4KiBByFactorsOfFour() {
        assertThrows(IllegalArgumentException.class, () -> new CalibrationSettings(3L << 20, 1 << 16, 1 << 20, 128,
                1 << 20, 0, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new CalibrationSettings(4L << 20, 1 << 16, 8 << 20, 128,
                1 << 20, 0, 1, 1, 1));
        assertEquals(List.of(4096L, 16384L, 65536L, 262144L, 1048576L, 4194304L, 16777216L, 67108864L),
                CopyBenchmarks.sizes(64L << 20));
        assertEquals(List.of(4096L, 16384L, 65536L, 131072L), CopyBenchmarks.sizes(128L << 10));
    }

    @Test
    void theKernelsAreAResourceWithEveryKernelTheSuiteLaunches() {
        String source = CalibrationKernels.source();
        for (String kernel : List.of("load_stride", "store_stride", "load_passes", "load_block4", "store_block4",
                "chase_init", "chase", "atomic_add", "shared_stride", "empty")) {
            assertEquals(true, source.contains("void " + kernel + "("), kernel);
        }
        for (String c : ComputeBenchmarks.CLASSES) {
            assertEquals(true, source.contains("CHAIN_KERNEL(" + c + ","), c);
        }
    }
}
