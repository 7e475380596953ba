package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.backend.BackendException;

/** Where cuBLAS is looked for: the variable, toolkits, then the wheel in the project's or the user's install. */
class CublasLibraryTest {
    @TempDir
    Path dir;

    private Path touch(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, "");
    }

    @Test
    void theVariableNamesTheLibraryOrItsDirectory() throws IOException {
        Path lib = touch(dir.resolve("lib/libcublas.so.12"));
        Path home = Files.createDirectories(dir.resolve("home"));
        assertEquals(lib, new CublasLibrary(Map.of("POLYGPU_CUBLAS", lib.toString()), List.of(), null, home, home)
                .locate());
        assertEquals(lib, new CublasLibrary(Map.of("POLYGPU_CUBLAS", lib.getParent().toString()), List.of(), null,
                home, home).locate());
        BackendException e = assertThrows(BackendException.class, () -> new CublasLibrary(
                Map.of("POLYGPU_CUBLAS", dir.resolve("none").toString()), List.of(), null, home, home).locate());
        assertTrue(e.getMessage().contains("POLYGPU_CUBLAS names"), e.getMessage());
    }

    @Test
    void aToolkitComesBeforeTheWheelsAndTheProjectWheelIsFoundFromASubdirectory() throws IOException {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path wheel = touch(dir.resolve("project/.polygpu/cublas/nvidia/cublas/lib/libcublas.so.12"));
        Path module = Files.createDirectories(dir.resolve("project/test"));
        assertEquals(wheel, new CublasLibrary(Map.of(), List.of(), null, module, home).locate());
        Path toolkit = touch(dir.resolve("cuda/lib64/libcublas.so.12.9"));
        assertEquals(toolkit, new CublasLibrary(Map.of("CUDA_HOME", dir.resolve("cuda").toString()), List.of(), null,
                module, home).locate());
    }

    @Test
    void nothingFoundSaysWhereItLookedAndHowToInstall() throws IOException {
        Path home = Files.createDirectories(dir.resolve("home"));
        BackendException e = assertThrows(BackendException.class,
                () -> new CublasLibrary(Map.of(), List.of(), dir.resolve("p").toString(), home, home).locate());
        assertTrue(e.getMessage().contains("scripts/install-cublas.sh") && e.getMessage().contains(".polygpu/cublas"),
                e.getMessage());
    }
}
