package org.polygpu.lang;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/** Shared libraries the bind tests build from C++ source with the machine's C++ compiler. */
final class SharedLibraries {
    private SharedLibraries() {
    }

    /**
     * Compiles {@code source} into {@code dir/name} with {@code c++} (or {@code g++}); skips the calling test, saying
     * why, when neither is installed.
     */
    static Path build(Path dir, String name, String source) throws IOException, InterruptedException {
        Path src = dir.resolve(name + ".cpp");
        Files.writeString(src, source);
        Path library = dir.resolve(name);
        for (String compiler : List.of("c++", "g++")) {
            Process p;
            try {
                p = new ProcessBuilder(compiler, "-shared", "-fPIC", "-O1", "-o", library.toString(), src.toString())
                        .redirectErrorStream(true).start();
            } catch (IOException e) {
                continue;
            }
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new AssertionError(compiler + " failed on " + src + ":\n" + log);
            }
            return library;
        }
        Assumptions.abort("no C++ compiler (c++ or g++) is installed to build a shared library for bind");
        return library;
    }
}
