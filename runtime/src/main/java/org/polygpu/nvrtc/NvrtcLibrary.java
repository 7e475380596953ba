package org.polygpu.nvrtc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds {@code libnvrtc}, in this order: an explicit path (the {@code NvrtcLibrary} option), the environment
 * variable {@code POLYGPU_NVRTC}, {@code $CUDA_HOME/lib64} and {@code $CUDA_PATH/lib64}, the standard locations
 * ({@code /usr/local/cuda/lib64}, {@code /usr/lib/x86_64-linux-gnu}), and the pip wheel installed by
 * {@code scripts/install-nvrtc.sh} under {@code <project>/.polygpu/nvrtc} or {@code ~/.polygpu/nvrtc}.
 *
 * <p>The project directory is the system property {@code polygpu.home} when set, else the nearest directory at or
 * above the working directory that holds {@code .polygpu/nvrtc} (so tests running in a module directory find the
 * install at the project root). An explicit path or {@code POLYGPU_NVRTC} that names nothing usable is an error, not
 * a reason to look elsewhere. Explicit paths and the variable may name the library file or a directory holding it.
 * Instances are immutable.
 */
public final class NvrtcLibrary {
    static final String ENVIRONMENT_VARIABLE = "POLYGPU_NVRTC";
    static final String HOME_PROPERTY = "polygpu.home";
    static final Path INSTALL_DIRECTORY = Path.of(".polygpu", "nvrtc");
    /** Where the library lies inside a wheel installed with {@code pip install --target}: CUDA 12, then 13. */
    static final List<Path> WHEEL_LIBRARIES = List.of(Path.of("nvidia/cuda_nvrtc/lib/libnvrtc.so.12"),
            Path.of("nvidia/cu13/lib/libnvrtc.so.13"));
    static final List<Path> STANDARD_DIRECTORIES = List.of(Path.of("/usr/local/cuda/lib64"),
            Path.of("/usr/lib/x86_64-linux-gnu"));
    private static final Pattern LIBRARY_NAME = Pattern.compile("libnvrtc\\.so(\\.\\d+)*");
    private static final String HOW_TO_INSTALL = """
            To get NVRTC: run scripts/install-nvrtc.sh in the polygpu checkout (it installs the \
            nvidia-cuda-nvrtc-cu12 wheel into <project>/.polygpu/nvrtc); or run \
            `pip install nvidia-cuda-nvrtc-cu12` and set POLYGPU_NVRTC to its \
            site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12; or install the CUDA toolkit and set CUDA_HOME.""";

    private final String explicitPath;
    private final Map<String, String> environment;
    private final List<Path> standardDirectories;
    private final String projectHome;
    private final Path workingDirectory;
    private final Path userHome;

    /**
     * A locator over the given search inputs.
     *
     * @param explicitPath the {@code NvrtcLibrary} option, or {@code null}
     * @param environment the environment variables ({@code POLYGPU_NVRTC}, {@code CUDA_HOME}, {@code CUDA_PATH})
     * @param standardDirectories the standard library directories to search
     * @param projectHome the {@code polygpu.home} property, or {@code null}
     * @param workingDirectory where the search for {@code .polygpu/nvrtc} starts walking up
     * @param userHome the user's home directory, searched for {@code ~/.polygpu/nvrtc}
     */
    NvrtcLibrary(String explicitPath, Map<String, String> environment, List<Path> standardDirectories,
            String projectHome, Path workingDirectory, Path userHome) {
        this.explicitPath = explicitPath;
        this.environment = Map.copyOf(environment);
        this.standardDirectories = List.copyOf(standardDirectories);
        this.projectHome = projectHome;
        this.workingDirectory = workingDirectory.toAbsolutePath().normalize();
        this.userHome = userHome.toAbsolutePath().normalize();
    }

    /** A locator over this process's environment, system properties and working directory. */
    public static NvrtcLibrary system(String explicitPathOrNull) {
        return new NvrtcLibrary(explicitPathOrNull, System.getenv(), STANDARD_DIRECTORIES,
                System.getProperty(HOME_PROPERTY), Path.of(""), Path.of(System.getProperty("user.home")));
    }

    /**
     * The library, or empty when none is found anywhere (an expected state on machines without CUDA).
     *
     * @throws NvrtcException when the explicit path or {@code POLYGPU_NVRTC} names nothing usable
     */
    public Optional<Path> find() {
        return search(new ArrayList<>());
    }

    /**
     * The library.
     *
     * @throws NvrtcException when none is found (the message lists where it looked and how to install NVRTC), or
     *     the explicit path or {@code POLYGPU_NVRTC} names nothing usable
     */
    public Path locate() {
        List<String> looked = new ArrayList<>();
        return search(looked).orElseThrow(() -> NvrtcException.unavailable(
                "NVRTC (libnvrtc.so) was not found. Looked in:\n  " + String.join("\n  ", looked) + "\n"
                        + HOW_TO_INSTALL));
    }

    private Optional<Path> search(List<String> looked) {
        if (explicitPath != null && !explicitPath.isBlank()) {
            return Optional.of(configured(explicitPath, "The NvrtcLibrary option"));
        }
        String variable = environment.get(ENVIRONMENT_VARIABLE);
        if (variable != null && !variable.isBlank()) {
            return Optional.of(configured(variable, ENVIRONMENT_VARIABLE));
        }
        List<Candidate> candidates = new ArrayList<>();
        for (String toolkit : List.of("CUDA_HOME", "CUDA_PATH")) {
            String value = environment.get(toolkit);
            if (value != null && !value.isBlank()) {
                Path directory = Path.of(value, "lib64");
                candidates.add(new Candidate(directory, directory + " ($" + toolkit + ")", false));
            }
        }
        for (Path directory : standardDirectories) {
            candidates.add(new Candidate(directory, directory + " (standard location)", false));
        }
        candidates.add(projectInstall());
        Path userInstall = userHome.resolve(INSTALL_DIRECTORY);
        candidates.add(new Candidate(userInstall, userInstall + " (user install)", true));
        for (Candidate candidate : candidates) {
            looked.add(candidate.description());
            Optional<Path> found = candidate.wheel()
                    ? wheelLibrary(candidate.directory())
                    : inDirectory(candidate.directory());
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** The project's install directory: from {@code polygpu.home}, else the nearest ancestor that has one. */
    private Candidate projectInstall() {
        if (projectHome != null && !projectHome.isBlank()) {
            Path install = Path.of(projectHome).toAbsolutePath().normalize().resolve(INSTALL_DIRECTORY);
            return new Candidate(install, install + " (project install, from " + HOME_PROPERTY + ")", true);
        }
        for (Path directory = workingDirectory; directory != null; directory = directory.getParent()) {
            Path install = directory.resolve(INSTALL_DIRECTORY);
            if (Files.isDirectory(install)) {
                return new Candidate(install, install + " (project install)", true);
            }
        }
        return new Candidate(workingDirectory.resolve(INSTALL_DIRECTORY),
                INSTALL_DIRECTORY + " in " + workingDirectory + " and its parents (project install)", true);
    }

    /** A path someone configured: the library itself, or a directory holding it; anything else is an error. */
    private static Path configured(String value, String source) {
        Path path = Path.of(value).toAbsolutePath().normalize();
        if (Files.isRegularFile(path)) {
            return path;
        }
        if (Files.isDirectory(path)) {
            return inDirectory(path).or(() -> wheelLibrary(path)).orElseThrow(() -> NvrtcException.unavailable(
                    source + " names the directory " + path + ", which holds no libnvrtc.so*.\n" + HOW_TO_INSTALL));
        }
        throw NvrtcException.unavailable(source + " names " + path + ", which does not exist.\n" + HOW_TO_INSTALL);
    }

    private static Optional<Path> wheelLibrary(Path installDirectory) {
        return WHEEL_LIBRARIES.stream().map(installDirectory::resolve).filter(Files::isRegularFile).findFirst();
    }

    /** {@code libnvrtc.so} in {@code directory}, else its highest-versioned {@code libnvrtc.so.N}. */
    private static Optional<Path> inDirectory(Path directory) {
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> LIBRARY_NAME.matcher(f.getFileName().toString()).matches())
                    .filter(Files::isRegularFile)
                    .max(Comparator.comparing((Path f) -> f.getFileName().toString().length() == "libnvrtc.so".length())
                            .thenComparing(NvrtcLibrary::versionKey))
                    .map(f -> f.toAbsolutePath().normalize());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + directory + " while looking for NVRTC", e);
        }
    }

    /** The version suffix of {@code libnvrtc.so.12.9.86} as a zero-padded string that sorts numerically. */
    private static String versionKey(Path file) {
        String suffix = file.getFileName().toString().substring("libnvrtc.so".length());
        StringBuilder key = new StringBuilder();
        for (String part : suffix.split("\\.")) {
            if (!part.isEmpty()) {
                key.append(String.format("%010d", Long.parseLong(part)));
            }
        }
        return key.toString();
    }

    /**
     * A directory to search, described for the not-found message.
     *
     * @param wheel whether the directory is a {@code pip install --target} tree rather than a library directory
     */
    private record Candidate(Path directory, String description, boolean wheel) {
    }
}
