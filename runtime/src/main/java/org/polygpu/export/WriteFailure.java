package org.polygpu.export;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

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
        if (e instanceof NoSuchFileException) {
            Path parent = file.toAbsolutePath().getParent();
            return "no such file or directory" + (parent != null ? " (does " + parent + " exist?)" : "");
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
