package org.polygpu.lang.builtins;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.polygpu.backend.ModuleImage;
import org.polygpu.lang.PolygpuException;

import com.oracle.truffle.api.TruffleFile;
import com.oracle.truffle.api.TruffleLanguage;

/** Files that {@code bindkernel} and {@code bindall} read: compiled modules (PTX text or a CUBIN) and NIDL files. */
final class ModuleFiles {
    private ModuleFiles() {
    }

    /** The module in {@code path}: a CUBIN when the name ends in {@code .cubin}, else PTX text. */
    static ModuleImage module(TruffleLanguage.Env env, String function, String path) {
        byte[] bytes = read(env, function, path);
        return path.endsWith(".cubin") ? new ModuleImage.Cubin(bytes, "from " + path)
                : new ModuleImage.Ptx(new String(bytes, StandardCharsets.UTF_8));
    }

    /** The text of {@code path}. */
    static String text(TruffleLanguage.Env env, String function, String path) {
        return new String(read(env, function, path), StandardCharsets.UTF_8);
    }

    /**
     * The absolute path of {@code path} when it names an existing file; else {@code path} itself, for a library name
     * that the system's loader searches for ({@code libm.so.6}).
     */
    static String libraryPath(TruffleLanguage.Env env, String path) {
        try {
            TruffleFile file = env.getPublicTruffleFile(path);
            return path.contains("/") || file.exists() ? file.getAbsoluteFile().getPath() : path;
        } catch (SecurityException | UnsupportedOperationException | IllegalArgumentException e) {
            return path;
        }
    }

    private static byte[] read(TruffleLanguage.Env env, String function, String path) {
        try {
            return env.getPublicTruffleFile(path).readAllBytes();
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            throw PolygpuException.badValue(function + ": cannot read " + path + ": " + e.getMessage());
        }
    }
}
