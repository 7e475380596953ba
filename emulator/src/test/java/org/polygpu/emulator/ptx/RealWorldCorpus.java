package org.polygpu.emulator.ptx;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.polygpu.nvrtc.NvrtcResult;

/**
 * The real-world kernel corpus: CUDA sources published by other projects, listed with their package, version, sha256
 * and licence in {@code corpus/real-world.tsv} and fetched unmodified by {@code scripts/install-corpus.sh} into
 * {@code <project>/.polygpu/corpus}. A {@link Kernel}'s source is read from its file as the package's own code reads
 * it and compiled as the package's own compiler wrapper does (cupy's {@code RawModule}: {@code --std=c++17},
 * {@code -ftz=true} and cupy's include directory; pycuda's {@code SourceModule}: the source inside
 * {@code extern "C" { }}); only the architecture is the emulated device's. Tests using it are skipped where the
 * corpus is not installed.
 */
final class RealWorldCorpus {
    static final String MANIFEST = "/org/polygpu/emulator/corpus/real-world.tsv";
    private static final Map<String, Package> PACKAGES = new LinkedHashMap<>();
    private static final Map<String, Kernel> KERNELS = new LinkedHashMap<>();

    static {
        for (String line : TestDevice.fixture(MANIFEST).split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f[0].equals("package") && f.length == 7) {
                PACKAGES.put(f[1], new Package(f[1], f[2], f[3], f[4], f[5], f[6]));
            } else if (f[0].equals("kernel") && f.length == 6) {
                Package p = PACKAGES.get(f[2]);
                if (p == null) {
                    throw new IllegalStateException("kernel " + f[1] + " names package " + f[2]
                            + ", which has no package row above it in " + MANIFEST);
                }
                KERNELS.put(f[1], new Kernel(f[1], p, f[3], f[4], List.of(f[5].split(";"))));
            } else {
                throw new IllegalStateException("malformed row in " + MANIFEST + ": " + line);
            }
        }
    }

    private RealWorldCorpus() {
    }

    /** A published source archive, and the members of it that the install script extracts. */
    record Package(String name, String version, String sha256, String url, String licence, String members) {
    }

    /**
     * One CUDA source of the corpus.
     *
     * @param id the manifest's name for it
     * @param pkg the package it comes from
     * @param path its file under {@code .polygpu/corpus}
     * @param literal the Python name whose string literal holds the source ({@code NAME} or {@code NAME[k]})
     * @param entries its kernels, as the package names them (name expressions for template instances)
     */
    record Kernel(String id, Package pkg, String path, String literal, List<String> entries) {
        /** Where the source comes from, for test names and messages. */
        String origin() {
            return pkg.name() + " " + pkg.version() + " (" + pkg.licence() + "): " + path + " " + literal;
        }

        /** The source as the package's code holds it, unmodified. */
        String source() {
            Matcher m = Pattern.compile("(\\w+)(?:\\[(\\d+)])?").matcher(literal);
            if (!m.matches()) {
                throw new IllegalStateException("kernel " + id + ": '" + literal + "' is not NAME or NAME[k]");
            }
            Path file = directory().resolve(path);
            try {
                String python = Files.readString(file, StandardCharsets.UTF_8);
                return PythonStrings.assigned(python, m.group(1), m.group(2) == null ? 1 : Integer.parseInt(m
                        .group(2)));
            } catch (IOException e) {
                throw new UncheckedIOException("kernel " + id + ": cannot read " + file, e);
            }
        }

        /** The {@link #source()} compiled for {@code arch} as the package compiles it. */
        Compiled compile(String arch) {
            return compile(arch, source());
        }

        /**
         * {@code source} (the {@link #source()}, after whatever the package's own host code does to it, such as
         * Python's {@code %} formatting of a template) compiled for {@code arch} as the package compiles it.
         */
        Compiled compile(String arch, String source) {
            List<String> options = new ArrayList<>(options());
            options.add("--gpu-architecture=" + arch);
            NvrtcResult r = CudaCompiler.result(program(source), programName(), options, entries);
            return new Compiled(this, PtxModule.parse(r.ptx()), r.loweredNames());
        }

        /** The NVRTC options the package's compiler wrapper passes, besides the architecture. */
        List<String> options() {
            return switch (pkg.name()) {
                case "cupy" -> List.of("--std=c++17", "-ftz=true", "-I" + directory().resolve("cupy-" + pkg.version()
                        + "/cupy/_core/include"));
                case "pycuda" -> List.of();
                default -> throw new IllegalStateException("no compile convention for package " + pkg.name());
            };
        }

        /** The program the package's compiler wrapper gives NVRTC for {@code source}. */
        String program(String source) {
            return pkg.name().equals("pycuda") ? "extern \"C\" {\n" + source + "\n}\n" : source;
        }

        /** The name of the program in NVRTC's messages: the Python file's, as a .cu file. */
        String programName() {
            return Path.of(path).getFileName().toString().replace(".py", ".cu");
        }
    }

    /** A compiled corpus source: its module and the symbol of each entry. */
    record Compiled(Kernel kernel, PtxModule module, Map<String, String> symbols) {
        /** The symbol of {@code entry}, one of the kernel's entries. */
        String symbol(String entry) {
            String s = symbols.get(entry);
            if (s == null) {
                throw new IllegalArgumentException(kernel.id() + " has no entry '" + entry + "'; it has "
                        + symbols.keySet());
            }
            return s;
        }
    }

    /** The manifest's kernel {@code id}; the test is skipped when the corpus is not installed. */
    static Kernel kernel(String id) {
        Kernel k = KERNELS.get(id);
        if (k == null) {
            throw new IllegalArgumentException("no kernel '" + id + "' in " + MANIFEST + "; it has "
                    + KERNELS.keySet());
        }
        assumeInstalled(k.pkg());
        return k;
    }

    static List<Kernel> kernels() {
        return List.copyOf(KERNELS.values());
    }

    static List<Package> packages() {
        return List.copyOf(PACKAGES.values());
    }

    static void assumeInstalled(Package p) {
        Path stamp = installed().map(d -> d.resolve(p.name() + "-" + p.version() + ".sha256")).orElse(null);
        // The install script's stamp: the archive's sha256 and the members it extracted.
        Assumptions.assumeTrue(stamp != null && Files.isRegularFile(stamp) && read(stamp).strip().equals(p.sha256()
                + " " + p.members()),
                p.name() + " " + p.version() + " is not installed in .polygpu/corpus (scripts/install-corpus.sh)");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The {@code .polygpu/corpus} of the project: under the {@code polygpu.home} property when set, else the nearest
     * at or above the working directory (tests run in a module directory).
     */
    static Optional<Path> installed() {
        List<Path> candidates = new ArrayList<>();
        String home = System.getProperty("polygpu.home");
        if (home != null) {
            candidates.add(Path.of(home));
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            candidates.add(d);
        }
        return candidates.stream().map(d -> d.resolve(".polygpu").resolve("corpus")).filter(Files::isDirectory)
                .findFirst();
    }

    private static Path directory() {
        return installed().orElseThrow(() -> new IllegalStateException("no .polygpu/corpus at or above "
                + Path.of("").toAbsolutePath()));
    }
}
