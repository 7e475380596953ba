package org.polygpu.lang;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.polygpu.config.UserFiles;
import org.polygpu.topology.BandwidthMatrixFiles;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * The options that name a file, a library or a directory, checked when a context (or a command) starts, before any
 * backend opens: {@code NvrtcLibrary} must be a readable shared library, {@code BandwidthMatrix} and
 * {@code EmulatedTopology} a preset or a readable CSV file that parses, {@code ExportDAG} and {@code ExportTrace}
 * files that can be written at close, {@code KernelCacheDirectory} a directory that exists or can be created.
 * Each problem is an {@link IllegalArgumentException} naming the option, its value and the reason
 * ({@link UserFiles}), which the context reports as {@code polygpu cannot start: ...}. An option whose file only a
 * backend reads (an emulated device model given as a file) is checked by that backend's provider with
 * {@link UserFiles#readText}, the same way. Stateless.
 */
public final class OptionFiles {
    private OptionFiles() {
    }

    /**
     * Checks every file-valued option that is set.
     *
     * @throws IllegalArgumentException naming the first option whose file is missing, a directory, unreadable,
     *                                  not writable or malformed
     */
    public static void check(ContextOptions options) {
        set(options, "NvrtcLibrary").ifPresent(v -> UserFiles.library("NvrtcLibrary", Path.of(v)));
        set(options, "BandwidthMatrix").ifPresent(v -> matrix("BandwidthMatrix", v));
        set(options, "EmulatedTopology").ifPresent(v -> matrix("EmulatedTopology", v));
        options.exportDag().ifPresent(p -> UserFiles.output("ExportDAG", p.toString(), Path.of(p + ".dot")));
        options.exportTrace().ifPresent(p -> UserFiles.output("ExportTrace", p));
        if (options.backendOptions().kernelCache().isPresent()) {
            set(options, "KernelCacheDirectory").ifPresent(v -> UserFiles.directory("KernelCacheDirectory",
                    Path.of(v)));
        }
    }

    /**
     * A bandwidth matrix option: a preset name, {@code unmeasured} ({@code BandwidthMatrix} only), or a CSV file that must be readable and parse.
     * A value that is neither an existing path nor a preset gets the loader's message, which lists the presets.
     */
    private static void matrix(String option, String value) {
        if (option.equals("BandwidthMatrix") && value.equals(BandwidthMatrixFiles.UNMEASURED)
                || BandwidthMatrixLoader.presetNames().contains(value)) {
            return;
        }
        Path file = Path.of(value);
        if (Files.exists(file)) {
            UserFiles.readText(option, file);
        }
        try {
            BandwidthMatrixLoader.resolve(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + "=" + value + ": " + e.getMessage(), e);
        }
    }

    /** The value of a text option the user set, as {@code getoptions()} shows it; empty when unset. */
    private static Optional<String> set(ContextOptions options, String name) {
        String v = options.shown().getOrDefault(name, "").strip();
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }
}
