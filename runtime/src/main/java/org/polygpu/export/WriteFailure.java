package org.polygpu.export;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.polygpu.config.UserFiles;

/**
 * The error for an export that cannot be written, with the operating system's reason: an {@link IOException}'s own
 * message is often just the path ({@code NoSuchFileException: /tmp/x/g.dot}), which says nothing of why.
 */
final class WriteFailure {
    private WriteFailure() {
    }

    /** A user error (a bad export path), so the language reports it as such rather than as an internal error. */
    static IllegalStateException of(String what, Path file, IOException e) {
        return new IllegalStateException("cannot write " + what + " to " + file + ": " + reason(file, e), e);
    }

    private static String reason(Path file, IOException e) {
        String reason = UserFiles.reason(e);
        Path parent = file.toAbsolutePath().getParent();
        if (!(e instanceof NoSuchFileException) || parent == null) {
            return reason;
        }
        return reason + (Files.isDirectory(parent) ? "" : Files.exists(parent)
                ? " (" + parent + " is not a directory)" : " (directory " + parent + " does not exist)");
    }
}
