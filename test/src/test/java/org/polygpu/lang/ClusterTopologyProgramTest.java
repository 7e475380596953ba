package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.bench.programs.Vec;
import org.polygpu.bench.programs.Verdict;
import org.polygpu.bench.study.Study;

/**
 * Emulated clusters ({@code EmulatedTopology=2xv100x8}): a study program validates on the 16 GPUs of two nodes with
 * kernels on both, the study takes a cluster topology, and a bad cluster name stops the context with the syntax.
 */
class ClusterTopologyProgramTest {
    private static final Pattern KERNEL_DEVICE = Pattern.compile("\"cat\":\"kernel\",\"ph\":\"X\",[^}]*?\"pid\":([0-9]+)");

    @Test
    void vecValidatesOnSixteenGpusOfTwoNodes(@TempDir Path dir) throws Exception {
        Polyglot.assumeNvrtc();
        Path trace = dir.resolve("trace.json");
        Verdict v;
        try (Context context = Polyglot.context(Map.of("EmulatedTopology", "2xv100x8", "EmulatedDevices", "16",
                "DeviceSelectionPolicy", "round-robin", "ExportTrace", trace.toString()))) {
            v = new Vec(context).run(4096, 32);
        }
        assertTrue(v.ok(), v.line());
        assertTrue(v.line().contains("gpus=16"), v.line());
        Set<Integer> devices = new TreeSet<>();
        Matcher m = KERNEL_DEVICE.matcher(Files.readString(trace));
        while (m.find()) {
            devices.add(Integer.parseInt(m.group(1)));
        }
        assertEquals(16, devices.size(), "round-robin puts kernels on every GPU of both nodes: " + devices);
    }

    @Test
    void aBadClusterNameStopsTheContextWithTheSyntax() {
        PolyglotException e = failsToStart(Map.of("EmulatedTopology", "4xh100x1"));
        assertTrue(e.getMessage().contains("invalid cluster topology '4xh100x1'"), e.getMessage());
        assertTrue(e.getMessage().contains("<nodes>x<node preset>"), e.getMessage());
    }

    @Test
    void moreDevicesThanTheClusterHasAreRefused() {
        PolyglotException e = failsToStart(Map.of("EmulatedTopology", "2xa100x8", "EmulatedDevices", "17"));
        assertTrue(e.getMessage().contains("1..16 are valid"), e.getMessage());
    }

    private static PolyglotException failsToStart(Map<String, String> options) {
        try (Context c = Polyglot.context(options)) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> c.initialize("polygpu"));
            assertTrue(e.getMessage().startsWith("polygpu cannot start: "), e.getMessage());
            return e;
        }
    }

    /** The study on a cluster: one row per run, the topology's name in it, the hand baseline extended to 16 GPUs. */
    @Test
    void theStudyRunsOnAClusterTopology(@TempDir Path dir) throws Exception {
        Polyglot.assumeNvrtc();
        Path csv = Study.execute(new String[] {"--out", dir.toString(), "--benchmarks", "vec", "--topologies",
            "2xh100x8", "--gpus", "16", "--policies", "round-robin", "--sizes", "vec=262144", "--no-plots"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<String> lines = Files.readAllLines(csv);
        assertEquals(3, lines.size(), String.join("\n", lines));
        for (String line : lines.subList(1, 3)) {
            String[] f = line.split(",", -1);
            assertEquals("2xh100x8", f[1], line);
            assertEquals("16", f[2], line);
            assertTrue(Double.parseDouble(f[4]) > 0, line);
        }
        assertTrue(lines.get(2).startsWith("vec,2xh100x8,16,hand,"), lines.get(2));
    }

    /** {@code --nodes 1,2,8} of v100x8: the clusters 1xv100x8, 2xv100x8 and 8xv100x8, each on all its GPUs. */
    @Test
    void theStudyRunsEachNodeCountOnAllItsGpus(@TempDir Path dir) throws Exception {
        Polyglot.assumeNvrtc();
        Path csv = Study.execute(new String[] {"--out", dir.toString(), "--benchmarks", "vec", "--topologies",
            "v100x8", "--nodes", "1,2,8", "--partitions", "16", "--policies", "round-robin", "--sizes", "vec=65536",
            "--no-hand", "--no-plots"}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<String> lines = Files.readAllLines(csv);
        assertEquals(4, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(1).startsWith("vec,1xv100x8,8,round-robin,"), lines.get(1));
        assertTrue(lines.get(2).startsWith("vec,2xv100x8,16,round-robin,"), lines.get(2));
        assertTrue(lines.get(3).startsWith("vec,8xv100x8,64,round-robin,"), "all 64, no longer 63: " + lines.get(3));
    }

    @Test
    void theStudyRefusesClusterOptionsThatDoNotGoTogether() {
        assertEquals("--nodes runs every GPU of each cluster; do not give --gpus too",
                refused("--topologies", "h100x8", "--nodes", "2", "--gpus", "8"));
        assertTrue(refused("--topologies", "2xh100x8", "--nodes", "2").contains("must be node presets"));
        assertTrue(refused("--topologies", "h100x8", "--nodes", "2", "--device-memory", "1MiB")
                .startsWith("--device-memory needs --no-hand"));
        assertTrue(refused("--topologies", "2xh100x8", "--gpus", "17").contains("GPU counts must be in 1..16"));
        assertTrue(refused("--topologies", "4xh100x1").contains("invalid cluster topology '4xh100x1'"));
    }

    private static String refused(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> Study.execute(args,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).getMessage();
    }
}
