package org.polygpu.nvrtc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * NVRTC's results kept on disk, one file per compilation, so that a program run again loads its kernels instead of
 * recompiling them (as CuPy and Numba keep theirs). The key is a SHA-256 of everything that decides what NVRTC
 * produces: the NVRTC library (its version, and its file's path, size and modification time), the header
 * directories passed to it, the source, the program name, the options (the device architecture among them) and
 * the name expressions.
 *
 * <p>A source that includes a header the key cannot see ({@code #include "file"}, or an {@code -I},
 * {@code --include-path} or {@code --pre-include} option) is compiled every time: a changed header would not change
 * the key. A compilation that fails is not kept. A hit needs no NVRTC: the first load of a library file records its
 * version in the cache ({@code nvrtc-<hash>.version}), so that a later run can make the key from the file alone.
 *
 * <p>Safe for concurrent writers (threads or processes): an entry is written to a temporary file in the cache
 * directory, then renamed over the entry atomically, so a reader sees a whole entry or none. An entry that does not
 * decode ({@link KernelCacheEntry}: another format, truncated, altered) is a miss and is replaced. The cache never
 * fails a compilation: a directory that cannot be read or written makes every lookup a miss. Nothing is ever
 * evicted; deleting the directory empties the cache. Instances are immutable and thread-safe.
 */
public final class KernelCache {
    /** Relocates the default cache directory. */
    public static final String DIRECTORY_VARIABLE = "POLYGPU_CACHE_DIR";
    private static final String SUFFIX = ".nvrtc";
    private static final Pattern QUOTED_INCLUDE = Pattern.compile("(?m)^\\s*#\\s*include\\s*\"");
    private static final KernelCache DISABLED = new KernelCache(null);

    private final Path directory;

    private KernelCache(Path directory) {
        this.directory = directory;
    }

    /** A cache that keeps nothing: every compilation runs NVRTC. */
    public static KernelCache disabled() {
        return DISABLED;
    }

    /** A cache in {@code directory}, created when the first entry is written. */
    public static KernelCache in(Path directory) {
        return new KernelCache(directory.toAbsolutePath().normalize());
    }

    /** {@link #in} the directory given, or {@link #disabled()} when none is. */
    public static KernelCache of(Optional<Path> directory) {
        return directory.map(KernelCache::in).orElse(DISABLED);
    }

    /**
     * The per-user cache directory: {@code $POLYGPU_CACHE_DIR}, else {@code $XDG_CACHE_HOME/polygpu/kernels}, else
     * {@code ~/.cache/polygpu/kernels}.
     */
    public static Path defaultDirectory() {
        return defaultDirectory(System.getenv(), Path.of(System.getProperty("user.home")));
    }

    static Path defaultDirectory(Map<String, String> environment, Path userHome) {
        String relocated = environment.get(DIRECTORY_VARIABLE);
        if (relocated != null && !relocated.isBlank()) {
            return Path.of(relocated).toAbsolutePath().normalize();
        }
        String xdg = environment.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : userHome.resolve(".cache");
        return base.resolve("polygpu").resolve("kernels").toAbsolutePath().normalize();
    }

    /** The directory entries are kept in, or empty when this cache is disabled. */
    public Optional<Path> directory() {
        return Optional.ofNullable(directory);
    }

    /**
     * {@code nvrtc.compile(source, programName, options, nameExpressions)}, or what it gave before with the same
     * library, headers and inputs.
     *
     * @throws NvrtcException as {@link Nvrtc#compile} does
     */
    public NvrtcResult compile(Nvrtc nvrtc, String source, String programName, List<String> options,
            List<String> nameExpressions) {
        Compilation c = new Compilation(identity(nvrtc), source, programName, options, nameExpressions);
        return compile(c, () -> nvrtc.compile(source, programName, options, nameExpressions));
    }

    /**
     * As {@link #compile(Nvrtc, String, String, List, List)}, loading NVRTC only when the cache cannot answer: the
     * library that {@code nvrtcLibrary} (the {@code NvrtcLibrary} option, or {@code null}) names or the search finds is
     * identified by its file, and its version by what an earlier load of that same file recorded in the cache.
     *
     * @param load loads the library, as {@link Nvrtc#load} does for {@code nvrtcLibrary}
     * @throws NvrtcException as {@link Nvrtc#load} and {@link Nvrtc#compile} do
     */
    public NvrtcResult compile(String nvrtcLibrary, Supplier<Nvrtc> load, String source, String programName,
            List<String> options, List<String> nameExpressions) {
        if (directory != null && new Compilation("", source, programName, options, nameExpressions).cacheable()) {
            Path library = NvrtcLibrary.system(nvrtcLibrary).locate();
            Optional<NvrtcResult> hit = recordedVersion(library).flatMap(version -> lookup(new Compilation(
                    identity(version, library), source, programName, options, nameExpressions)));
            if (hit.isPresent()) {
                return hit.get();
            }
        }
        Nvrtc nvrtc = load.get();
        if (directory != null) {
            recordVersion(nvrtc);
        }
        return compile(nvrtc, source, programName, options, nameExpressions);
    }

    /** The entry for {@code compilation}, if the cache has a whole one. */
    private Optional<NvrtcResult> lookup(Compilation compilation) {
        if (!compilation.cacheable()) {
            return Optional.empty();
        }
        String key = compilation.key();
        return read(directory.resolve(key + SUFFIX)).flatMap(bytes -> KernelCacheEntry.decode(key, bytes));
    }

    /** The version a load of {@code library} recorded, if any. */
    private Optional<String> recordedVersion(Path library) {
        return read(versionFile(library)).map(b -> new String(b, StandardCharsets.UTF_8).strip())
                .filter(v -> v.matches("\\d+\\.\\d+"));
    }

    private void recordVersion(Nvrtc nvrtc) {
        if (!recordedVersion(nvrtc.libraryPath()).equals(Optional.of(nvrtc.version()))) {
            write(versionFile(nvrtc.libraryPath()), nvrtc.version().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Where the version of {@code library} is recorded: a file named after the library file's identity. */
    private Path versionFile(Path library) {
        return directory.resolve("nvrtc-" + new Compilation(identity("", library), "", "", List.of(), List.of()).key()
                + ".version");
    }

    /** What {@code compiler} gives for {@code compilation}, from the cache when an entry has it. */
    NvrtcResult compile(Compilation compilation, Supplier<NvrtcResult> compiler) {
        if (directory == null || !compilation.cacheable()) {
            return compiler.get();
        }
        String key = compilation.key();
        Path entry = directory.resolve(key + SUFFIX);
        Optional<NvrtcResult> cached = read(entry).flatMap(bytes -> KernelCacheEntry.decode(key, bytes));
        if (cached.isPresent()) {
            return cached.get();
        }
        NvrtcResult result = compiler.get();
        write(entry, KernelCacheEntry.encode(key, result));
        return result;
    }

    /** The entry's bytes, or empty when there is none or it cannot be read. */
    private static Optional<byte[]> read(Path entry) {
        try {
            return Optional.of(Files.readAllBytes(entry));
        } catch (IOException e) {
            // No entry, or an unreadable one: a miss, which the write that follows replaces if it can.
            return Optional.empty();
        }
    }

    /** Writes the entry through a temporary file renamed over it; a failure leaves the cache as it was. */
    private void write(Path entry, byte[] bytes) {
        Path temporary = null;
        try {
            Files.createDirectories(directory);
            temporary = Files.createTempFile(directory, entry.getFileName().toString(), ".tmp");
            Files.write(temporary, bytes);
            try {
                Files.move(temporary, entry, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, entry, StandardCopyOption.REPLACE_EXISTING);
            }
            temporary = null;
        } catch (IOException | SecurityException e) {
            // A cache that cannot be written (read-only, full) only costs the next run a compilation.
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException e) {
                    // Left behind: a stray temporary file is never read as an entry.
                }
            }
        }
    }

    /** The NVRTC library as the key sees it: version, file, size, modification time, header directories. */
    private static String identity(Nvrtc nvrtc) {
        return identity(nvrtc.version(), nvrtc.libraryPath());
    }

    private static String identity(String version, Path library) {
        StringBuilder id = new StringBuilder("nvrtc ").append(version).append(' ').append(library);
        try {
            BasicFileAttributes a = Files.readAttributes(library, BasicFileAttributes.class);
            id.append(' ').append(a.size()).append(' ').append(a.lastModifiedTime().toMillis());
        } catch (IOException e) {
            id.append(" unreadable");
        }
        NvrtcHeaders.beside(library).forEach(d -> id.append(" -I").append(d));
        return id.toString();
    }

    /**
     * The inputs of one compilation.
     *
     * @param compiler what identifies the compiler and its headers
     */
    record Compilation(String compiler, String source, String programName, List<String> options,
                       List<String> nameExpressions) {
        Compilation {
            options = List.copyOf(options);
            nameExpressions = List.copyOf(nameExpressions);
        }

        /** Whether the key covers everything the compilation reads (no header of the user's). */
        boolean cacheable() {
            return !QUOTED_INCLUDE.matcher(source).find() && options.stream().noneMatch(o -> o.startsWith("-I")
                    || o.startsWith("--include-path") || o.startsWith("--pre-include") || o.startsWith("-include"));
        }

        /** SHA-256 of every input, each length-prefixed so that no two different inputs give the same bytes. */
        String key() {
            try {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                update(sha, KernelCacheEntry.FORMAT);
                update(sha, compiler);
                update(sha, source);
                update(sha, programName);
                update(sha, "options " + options.size());
                options.forEach(o -> update(sha, o));
                update(sha, "names " + nameExpressions.size());
                nameExpressions.forEach(n -> update(sha, n));
                return HexFormat.of().formatHex(sha.digest());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
            }
        }

        private static void update(MessageDigest sha, String text) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            sha.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
            sha.update((byte) ':');
            sha.update(bytes);
        }
    }
}
