package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDK's AOT cache of {@code bin/polygpu --no-jit} ({@code scripts/aot.sh}): used only while its key and the
 * files it was made from are unchanged, and mapped by the JVM when fresh.
 */
class AotCacheLauncherTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> MODULES = List.of("runtime", "policies", "emulator", "cuda", "mpi", "cluster",
            "demo", "truffle-lang");
    private static final FileTime MADE = FileTime.from(Instant.now().minusSeconds(3600));

    @TempDir
    Path project;

    /** Runs {@code function} of scripts/aot.sh with the project root moved to {@code root}; its exit status. */
    private static int aot(Path root, String function, Map<String, String> environment) throws Exception {
        String script = "source scripts/lib.sh && source scripts/aot.sh && polygpu_java_home && polygpu_root='" + root
                + "' && polygpu_aot_dir='" + root + "/target/aot' && " + function;
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(ROOT.toFile())
                .redirectErrorStream(true);
        pb.environment().putAll(environment);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), function);
        assertEquals("", output.strip(), function + " prints nothing");
        return p.exitValue();
    }

    /** A project whose classes, library jar and cache were all made an hour ago, with a matching key. */
    private Path madeProject() throws Exception {
        for (String m : MODULES) {
            Files.setLastModifiedTime(Files.writeString(Files.createDirectories(project.resolve(m + "/target/classes"))
                    .resolve("A.class"), "class"), MADE);
        }
        Path lib = Files.createDirectories(project.resolve("truffle-lang/target/lib"));
        Files.setLastModifiedTime(Files.writeString(lib.resolve("polyglot.jar"), "jar"), MADE);
        Path aot = Files.createDirectories(project.resolve("target/aot"));
        Files.writeString(aot.resolve("polygpu.aot"), "cache");
        Files.writeString(aot.resolve("jars.stamp"), "");
        assertEquals(0, aot(project, "polygpu_aot_key > '" + aot.resolve("key") + "'", Map.of()));
        return aot;
    }

    @Test
    void aFreshCacheIsUsedAndAnyChangeMakesItStale() throws Exception {
        Path aot = madeProject();
        assertEquals(0, aot(project, "polygpu_aot_fresh", Map.of()), "fresh");

        Path jar = project.resolve("truffle-lang/target/lib/extra.jar");
        Files.setLastModifiedTime(Files.writeString(jar, "jar"), MADE);
        assertEquals(1, aot(project, "polygpu_aot_fresh", Map.of()), "a library jar more: another class path");
        Files.delete(jar);
        assertEquals(1, aot(project, "polygpu_aot_fresh", Map.of()), "a directory changed since: stale too");
        Files.setLastModifiedTime(jar.getParent(), MADE);
        assertEquals(0, aot(project, "polygpu_aot_fresh", Map.of()));

        Files.writeString(project.resolve("emulator/target/classes/A.class"), "recompiled");
        assertEquals(1, aot(project, "polygpu_aot_fresh", Map.of()), "a class newer than the cache");
        Files.setLastModifiedTime(project.resolve("emulator/target/classes/A.class"), MADE);
        assertEquals(0, aot(project, "polygpu_aot_fresh", Map.of()));

        Files.writeString(aot.resolve("key"), Files.readString(aot.resolve("key")).replace("jdk ", "jdk /other"));
        assertEquals(1, aot(project, "polygpu_aot_fresh", Map.of()), "another JDK");
        madeProject();
        Files.delete(aot.resolve("polygpu.aot"));
        assertEquals(1, aot(project, "polygpu_aot_fresh", Map.of()), "no cache");
    }

    /** Where the set-up scripts made a fresh cache, the JVM maps it: -XX:AOTMode=on fails otherwise. */
    @Test
    void theLauncherMapsAFreshCache() throws Exception {
        Assumptions.assumeTrue(aot(ROOT, "polygpu_aot_fresh", Map.of()) == 0,
                "no fresh AOT cache: scripts/aot-cache.sh makes one");
        Path log = project.resolve("aot.log");
        ProcessBuilder pb = new ProcessBuilder(ROOT.resolve("bin/polygpu").toString(), "--no-jit", "-c",
                "print(6 * 7)").directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().put("POLYGPU_JAVA_OPTS", "-XX:AOTMode=on -Xlog:aot=info:file=" + log);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(240, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), output);
        assertEquals("42\n", output);
        assertTrue(Files.readString(log).contains("Opened AOT cache"), Files.readString(log));
    }

    /** POLYGPU_AOT=0 runs from target/classes, whatever the cache. */
    @Test
    void polygpuAotZeroRunsWithoutTheCache() throws IOException, InterruptedException {
        Path log = project.resolve("aot.log");
        ProcessBuilder pb = new ProcessBuilder(ROOT.resolve("bin/polygpu").toString(), "--no-jit", "-c",
                "print(6 * 7)").directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().put("POLYGPU_AOT", "0");
        pb.environment().put("POLYGPU_JAVA_OPTS", "-Xlog:aot=info:file=" + log);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(240, TimeUnit.SECONDS));
        assertEquals("42\n", output);
        assertTrue(!Files.exists(log) || !Files.readString(log).contains("target/aot"), Files.readString(log));
    }
}
