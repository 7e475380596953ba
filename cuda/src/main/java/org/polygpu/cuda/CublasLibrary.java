package org.polygpu.cuda;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.polygpu.backend.BackendException;

/**
 * Finds {@code libcublas} the way NVRTC is found: the environment variable {@code POLYGPU_CUBLAS} (the library or
 * a directory holding it), {@code $CUDA_HOME/lib64} and {@code $CUDA_PATH/lib64}, the standard locations
 * ({@code /usr/local/cuda/lib64}, {@code /usr/lib/x86_64-linux-gnu}), then the {@code nvidia-cublas-cu12} pip wheel
 * installed by {@code scripts/install-cublas.sh} under {@code <project>/.polygpu/cublas} (the project being the
 * {@code polygpu.home} property or the nearest directory at or above the working directory that has one) or
 * {@code ~/.polygpu/cublas}. A variable that names nothing usable is an error. Immutable.
 */
final class CublasLibrary {
    static final String ENVIRONMENT_VARIABLE = "POLYGPU_CUBLAS";
    private static final Path INSTALL_DIRECTORY = Path.of(".polygpu", "cublas");
    private static final Path WHEEL_LIBRARY = Path.of("nvidia", "cublas", "lib", "libcublas.so.12");
    private static final List<Path> STANDARD_DIRECTORIES = List.of(Path.of("/usr/local/cuda/lib64"),
            Path.of("/usr/lib/x86_64-linux-gnu"));
    static final String HOW_TO_INSTALL = "To get cuBLAS: run scripts/install-cublas.sh (the nvidia-cublas-cu12 wheel "
            + "into <project>/.polygpu/cublas), set POLYGPU_CUBLAS to a libcublas.so, or install the CUDA toolkit and "
            + "set CUDA_HOME.";

    private final Map<String, String> environment;
    private final List<Path> standardDirectories;
    private final String projectHome;
    private final Path workingDirectory;
    private final Path userHome;

    CublasLibrary(Map<String, String> environment, List<Path> standardDirectories, String projectHome,
                  Path workingDirectory, Path userHome) {
        this.environment = Map.copyOf(environment);
        this.standardDirectories = List.copyOf(standardDirectories);
        this.projectHome = projectHome;
        this.workingDirectory = workingDirectory.toAbsolutePath().normalize();
        this.userHome = userHome.toAbsolutePath().normalize();
    }

    static CublasLibrary system() {
        return new CublasLibrary(System.getenv(), STANDARD_DIRECTORIES, System.getProperty("polygpu.home"),
                Path.of(""), Path.of(System.getProperty("user.home")));
    }

    /**
     * The library.
     *
     * @throws BackendException listing where it looked when none is found, or when {@code POLYGPU_CUBLAS} names nothing
     */
    Path locate() {
        String variable = environment.get(ENVIRONMENT_VARIABLE);
        if (variable != null && !variable.isBlank()) {
            Path p = Path.of(variable).toAbsolutePath().normalize();
            Optional<Path> found = Files.isRegularFile(p) ? Optional.of(p) : inDirectory(p);
            return found.orElseThrow(() -> new BackendException(ENVIRONMENT_VARIABLE + " names " + p
                    + ", which is not a libcublas.so nor a directory holding one. " + HOW_TO_INSTALL));
        }
        List<Path> looked = new ArrayList<>();
        for (String toolkit : List.of("CUDA_HOME", "CUDA_PATH")) {
            String value = environment.get(toolkit);
            if (value != null && !value.isBlank()) {
                looked.add(Path.of(value, "lib64"));
            }
        }
        looked.addAll(standardDirectories);
        for (Path directory : looked) {
            Optional<Path> found = inDirectory(directory);
            if (found.isPresent()) {
                return found.get();
            }
        }
        List<Path> wheels = new ArrayList<>();
        projectInstall().ifPresent(wheels::add);
        wheels.add(userHome.resolve(INSTALL_DIRECTORY));
        for (Path install : wheels) {
            looked.add(install);
            if (Files.isRegularFile(install.resolve(WHEEL_LIBRARY))) {
                return install.resolve(WHEEL_LIBRARY);
            }
        }
        throw new BackendException("cuBLAS (libcublas.so) was not found. Looked in: " + looked + ". " + HOW_TO_INSTALL);
    }

    private Optional<Path> projectInstall() {
        if (projectHome != null && !projectHome.isBlank()) {
            return Optional.of(Path.of(projectHome).toAbsolutePath().normalize().resolve(INSTALL_DIRECTORY));
        }
        for (Path d = workingDirectory; d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve(INSTALL_DIRECTORY))) {
                return Optional.of(d.resolve(INSTALL_DIRECTORY));
            }
        }
        return Optional.empty();
    }

    /** {@code libcublas.so} in {@code directory}, else its {@code libcublas.so.N} with the longest name. */
    private static Optional<Path> inDirectory(Path directory) {
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().matches("libcublas\\.so(\\.\\d+)*"))
                    .filter(Files::isRegularFile)
                    .max(Comparator.comparing((Path f) -> f.getFileName().toString().equals("libcublas.so"))
                            .thenComparing(f -> f.getFileName().toString()))
                    .map(f -> f.toAbsolutePath().normalize());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory + " while looking for cuBLAS", e);
        }
    }
}
