package org.polygpu.bench.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The measurement files, the study kernels' arguments and the report's error figures. */
class FidelityPartsTest {
    @Test
    void measurementsAreReadByColumnName(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("kernels.csv"), "kernel,size,grid,block,single_median_us,single_min_us,"
                + "batch_us_per_launch\nvec.square,n=65536,64,256,10.38,7.84,6.28\n");
        Files.writeString(dir.resolve("copies.csv"), "direction,host_memory,bytes,median_us,min_us,GBps_at_median\n"
                + "h2d,pinned,4096,10.43,9.83,0.39\n");
        Files.writeString(dir.resolve("concurrency.csv"), "kernel,n,grid,block,streams,wall_median_us,wall_min_us\n"
                + "black_scholes,4194304,64,256,2,197.09,192.74\n");
        Measurements m = Measurements.read(dir);
        assertEquals(List.of(new Measurements.KernelRow("vec.square", "n=65536", 64, 256, 6.28)), m.kernels());
        assertEquals(List.of(new Measurements.CopyRow("h2d", "pinned", 4096, 10.43)), m.copies());
        assertEquals(List.of(new Measurements.ConcurrencyRow("black_scholes", 4194304, 64, 256, 2, 197.09)),
                m.concurrency());
        assertEquals(0, m.batchFloorUs(), "no launch.csv");
        Files.writeString(dir.resolve("launch.csv"), "what,us_per_launch,note\n"
                + "\"CuPy RawKernel, 2000 back-to-back launches of an empty kernel, host wall\",6.85,\n"
                + "\"empty kernel, CUDA events around each launch (median)\",7.95,min 6.56\n");
        assertEquals(6.85, Measurements.read(dir).batchFloorUs());
        Files.writeString(dir.resolve("launch.csv"), "what,us_per_launch,note\n\"empty kernel\",7.95,\n");
        assertEquals(0, Measurements.read(dir).batchFloorUs(), "no host-wall row");
    }

    @Test
    void studyLaunchesHaveTheProgramsArguments() {
        StudyLaunch matvec = StudyLaunch.of("cg.matvec", "n=2048 rows=128");
        assertEquals("cg", matvec.file());
        assertEquals("matvec", matvec.function());
        assertEquals(List.of(new StudyLaunch.Buffer(128 * 2048, 1, false), new StudyLaunch.Buffer(2048, 1, false),
                new StudyLaunch.Buffer(128, 1, false), 128, 2048), matvec.arguments());
        assertEquals(4L * (128 * 2048 + 2048 + 128), matvec.bufferBytes());
        StudyLaunch diff = StudyLaunch.of("vec.diff_sum", "n=16");
        assertEquals(new StudyLaunch.Buffer(1, 0, true), diff.arguments().get(2), "one double accumulator");
        assertEquals("unknown study kernel 'vec.cube'", assertThrows(IllegalArgumentException.class,
                () -> StudyLaunch.of("vec.cube", "n=1")).getMessage());
    }

    @Test
    void theReportSummarisesErrorsBothWays() {
        List<FidelityReport.Compared> kernels = new ArrayList<>();
        kernels.add(new FidelityReport.Compared("a | n=1 | 1", 100, 200));
        kernels.add(new FidelityReport.Compared("b | n=1 | 1", 50, 25));
        kernels.add(new FidelityReport.Compared("c | n=1 | 1", 10, 10));
        List<FidelityReport.Compared> copies = List.of(new FidelityReport.Compared("4096 B h2d pinned", 10, 20),
                new FidelityReport.Compared("65536 B h2d pinned", 20, 22));
        FidelityReport r = new FidelityReport(kernels, List.of(), copies);
        assertEquals(2, r.longKernels().size());
        assertEquals(2, FidelityReport.geometricMean(r.longKernels()), 1e-12);
        assertEquals(2, FidelityReport.worst(r.longKernels()), 1e-12);
        assertEquals(1, r.launchBound().size());
        assertEquals(List.of(copies.get(1)), r.copiesFrom64KiB());
        assertEquals(0.1, FidelityReport.worstRelative(r.copiesFrom64KiB()), 1e-12);
    }
}
