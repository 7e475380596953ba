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
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.bench.study.Study;

/**
 * The policy study's runner ({@code scripts/study.sh}) on a tiny matrix: VEC and MUL at small sizes on 2 emulated
 * V100s, two policies and the hand-optimized baselines. Its CSV has exactly the study's columns, one row per run,
 * and two runs write the same text. ML and CG also run under the memory models {@code --memory-models} names.
 */
class StudyTest {
    private static final String HEADER = "benchmark,topology,gpus,policy,makespan_us,lower_bound_us,hand_us,bytes_h2d,"
            + "bytes_d2d,bytes_d2h";

    private static String study(Path out) throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        Path csv = Study.execute(new String[] {"--out", out.toString(), "--benchmarks", "vec,mul", "--topologies",
            "v100x8", "--gpus", "2", "--policies", "round-robin,minmax-transfer-time", "--sizes",
            "vec=65536,mul=256", "--no-plots"}, new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("6/6"), "the progress bar reaches 6/6");
        return Files.readString(csv);
    }

    @Test
    void writesTheStudysColumnsOneRowPerRunAndTheSameTextTwice(@TempDir Path dir) throws Exception {
        Polyglot.assumeNvrtc();
        String first = study(dir.resolve("first"));
        String second = study(dir.resolve("second"));
        assertEquals(first, second, "two runs of the same plan");
        List<String> lines = first.lines().toList();
        assertEquals(HEADER, lines.get(0));
        assertEquals(7, lines.size(), first);
        Set<String> runs = new TreeSet<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertEquals(10, f.length, line);
            assertEquals("v100x8", f[1], line);
            assertEquals("2", f[2], line);
            runs.add(f[0] + " " + f[3]);
            assertTrue(Double.parseDouble(f[4]) > 0, "makespan: " + line);
            assertTrue(Double.parseDouble(f[5]) > 0, "lower bound: " + line);
            assertTrue(Double.parseDouble(f[6]) > 0, "hand: " + line);
            assertTrue(Long.parseLong(f[7]) > 0, "every run copies its inputs in: " + line);
            assertTrue(Long.parseLong(f[8]) >= 0 && Long.parseLong(f[9]) == 0, "sampled runs read nothing: " + line);
            if (f[3].equals("hand")) {
                assertEquals(f[4], f[6], "a hand row's makespan is its hand_us: " + line);
            }
        }
        assertEquals(Set.of("mul hand", "mul minmax-transfer-time", "mul round-robin", "vec hand",
                "vec minmax-transfer-time", "vec round-robin"), runs);
    }

    /** ML under both memory models: study.csv keeps the explicit run, memory-models.csv has both side by side. */
    @Test
    void comparesTheMemoryModelsOfMlInTheirOwnCsv(@TempDir Path dir) throws Exception {
        Polyglot.assumeNvrtc();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        Study.execute(new String[] {"--out", dir.toString(), "--benchmarks", "ml,vec", "--topologies", "v100x8",
            "--gpus", "2", "--policies", "round-robin", "--sizes", "ml=2048,vec=65536", "--memory-models",
            "explicit,managed", "--no-hand", "--no-plots"}, new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("3/3"), "ml twice, vec once");
        assertEquals(3, Files.readAllLines(dir.resolve("study.csv")).size(), "the header and the explicit runs");
        List<String> lines = Files.readAllLines(dir.resolve("memory-models.csv"));
        assertEquals("benchmark,topology,gpus,policy,memory_model,makespan_us,bytes_h2d,bytes_d2d,bytes_d2h",
                lines.get(0));
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(1).startsWith("ml,v100x8,2,round-robin,explicit,"), lines.get(1));
        assertTrue(lines.get(2).startsWith("ml,v100x8,2,round-robin,managed,"), lines.get(2));
        String[] managed = lines.get(2).split(",");
        assertTrue(Double.parseDouble(managed[5]) > 0 && Long.parseLong(managed[6]) > 0,
                "a makespan, and the inputs migrated to the GPUs: " + lines.get(2));
    }

    @Test
    void refusesMemoryModelsWithoutExplicitFirstOrUnknown(@TempDir Path dir) {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        IllegalArgumentException first = assertThrows(IllegalArgumentException.class, () -> Study.execute(
                new String[] {"--out", dir.toString(), "--memory-models", "managed"}, quiet));
        assertTrue(first.getMessage().contains("must start with explicit"), first.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> Study.execute(
                new String[] {"--out", dir.toString(), "--memory-models", "explicit,unified"}, quiet));
        assertTrue(unknown.getMessage().contains("unified") && unknown.getMessage().contains("managed"),
                unknown.getMessage());
    }

    @Test
    void refusesAnUnknownPolicyNamingTheRegisteredOnes(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Study.execute(
                new String[] {"--out", dir.toString(), "--policies", "fastest"}, new PrintStream(
                        new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("fastest") && e.getMessage().contains("round-robin"), e.getMessage());
    }
}
