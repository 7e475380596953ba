package org.polygpu.nvrtc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The search order of the NVRTC locator, over fake directories (no library is loaded). */
class NvrtcLibraryTest {
    private static final Path WHEEL_LIBRARY = Path.of(".polygpu/nvrtc/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");

    @TempDir
    Path dir;

    private NvrtcLibrary locator(String explicit, Map<String, String> environment, List<Path> standard,
            String projectHome, Path workingDirectory) throws IOException {
        Path home = Files.createDirectories(dir.resolve("home"));
        return new NvrtcLibrary(explicit, environment, standard, projectHome, workingDirectory, home);
    }

    private Path touch(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, "not really a library");
    }

    @Test
    void nothingFoundSaysWhereItLookedAndHowToInstall() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Path work = Files.createDirectories(dir.resolve("project/module"));
        NvrtcLibrary locator = locator(null, Map.of("CUDA_HOME", empty.toString()), List.of(empty), null, work);

        assertEquals(Optional.empty(), locator.find());
        NvrtcException e = assertThrows(NvrtcException.class, locator::locate);
        String message = e.getMessage();
        assertTrue(message.startsWith("NVRTC (libnvrtc.so) was not found."), message);
        assertTrue(message.contains(empty.resolve("lib64") + " ($CUDA_HOME)"), message);
        assertTrue(message.contains(empty + " (standard location)"), message);
        assertTrue(message.contains(".polygpu/nvrtc in " + work + " and its parents"), message);
        assertTrue(message.contains("scripts/install-nvrtc.sh"), message);
        assertTrue(message.contains("pip install nvidia-cuda-nvrtc-cu12"), message);
        assertTrue(message.contains("POLYGPU_NVRTC"), message);
        assertTrue(e.function().isEmpty());
    }

    @Test
    void bogusExplicitPathIsAnErrorNamingItEvenWhenAnotherLibraryExists() throws IOException {
        Path standard = dir.resolve("std");
        touch(standard.resolve("libnvrtc.so.12"));
        Path bogus = dir.resolve("nowhere/libnvrtc.so");
        NvrtcLibrary locator = locator(bogus.toString(), Map.of(), List.of(standard), null, dir);

        NvrtcException e = assertThrows(NvrtcException.class, locator::locate);
        assertTrue(e.getMessage().startsWith("The NvrtcLibrary option names " + bogus + ", which does not exist."),
                e.getMessage());
        assertTrue(e.getMessage().contains("scripts/install-nvrtc.sh"), e.getMessage());
    }

    @Test
    void bogusEnvironmentVariableIsAnErrorNamingIt() throws IOException {
        Path bogus = dir.resolve("missing.so");
        NvrtcLibrary locator = locator(null, Map.of("POLYGPU_NVRTC", bogus.toString()), List.of(), null, dir);
        NvrtcException e = assertThrows(NvrtcException.class, locator::find);
        assertTrue(e.getMessage().startsWith("POLYGPU_NVRTC names " + bogus), e.getMessage());
    }

    @Test
    void explicitPathWinsOverEnvironmentAndMayNameADirectory() throws IOException {
        Path explicit = touch(dir.resolve("explicit/libnvrtc.so.12"));
        Path fromEnvironment = touch(dir.resolve("env/libnvrtc.so.12"));
        Map<String, String> environment = Map.of("POLYGPU_NVRTC", fromEnvironment.toString());

        assertEquals(explicit, locator(explicit.toString(), environment, List.of(), null, dir).locate());
        assertEquals(explicit, locator(explicit.getParent().toString(), environment, List.of(), null, dir).locate());
        assertEquals(fromEnvironment, locator(null, environment, List.of(), null, dir).locate());
        assertEquals(fromEnvironment, locator(" ", environment, List.of(), null, dir).locate());
    }

    @Test
    void cudaHomeComesBeforeStandardLocationsWhichComeBeforeTheProjectInstall() throws IOException {
        Path toolkit = touch(dir.resolve("cuda/lib64/libnvrtc.so.12")).getParent().getParent();
        Path standard = touch(dir.resolve("std/libnvrtc.so.12")).getParent();
        Path project = dir.resolve("project");
        touch(project.resolve(WHEEL_LIBRARY));
        Map<String, String> environment = Map.of("CUDA_HOME", toolkit.toString());

        assertEquals(toolkit.resolve("lib64/libnvrtc.so.12"),
                locator(null, environment, List.of(standard), project.toString(), dir).locate());
        assertEquals(standard.resolve("libnvrtc.so.12"),
                locator(null, Map.of(), List.of(standard), project.toString(), dir).locate());
        assertEquals(project.resolve(WHEEL_LIBRARY),
                locator(null, Map.of(), List.of(), project.toString(), dir).locate());
    }

    @Test
    void plainSoNameIsPreferredThenTheHighestVersionAndOtherLibrariesAreIgnored() throws IOException {
        Path lib = dir.resolve("lib");
        touch(lib.resolve("libnvrtc.so.9.2"));
        touch(lib.resolve("libnvrtc.so.12"));
        touch(lib.resolve("libnvrtc-builtins.so.13"));
        touch(lib.resolve("libnvrtc.alt.so.13"));
        assertEquals(lib.resolve("libnvrtc.so.12"), locator(null, Map.of(), List.of(lib), null, dir).locate());
        touch(lib.resolve("libnvrtc.so"));
        assertEquals(lib.resolve("libnvrtc.so"), locator(null, Map.of(), List.of(lib), null, dir).locate());
    }

    @Test
    void projectInstallIsFoundByWalkingUpFromAModuleDirectory() throws IOException {
        Path project = dir.resolve("project");
        touch(project.resolve(WHEEL_LIBRARY));
        Path module = Files.createDirectories(project.resolve("runtime/target"));
        assertEquals(project.resolve(WHEEL_LIBRARY), locator(null, Map.of(), List.of(), null, module).locate());
    }

    @Test
    void userInstallIsTheLastResort() throws IOException {
        Path library = touch(dir.resolve("home").resolve(WHEEL_LIBRARY));
        Path work = Files.createDirectories(dir.resolve("elsewhere"));
        assertEquals(library, locator(null, Map.of(), List.of(), null, work).locate());
    }

    @Test
    void theProjectInstallIsFoundFromTheModuleDirectoryWhereSurefireRuns() throws IOException {
        // scripts/install-nvrtc.sh installs into <root>/.polygpu/nvrtc; surefire's working directory is <root>/runtime.
        Path root = Path.of("").toAbsolutePath().getParent();
        Assumptions.assumeTrue(Files.isRegularFile(root.resolve(WHEEL_LIBRARY)),
                "scripts/install-nvrtc.sh has not run");
        NvrtcLibrary locator = locator(null, Map.of(), List.of(), null, Path.of(""));
        assertEquals(root.resolve(WHEEL_LIBRARY), locator.locate());
    }
}
