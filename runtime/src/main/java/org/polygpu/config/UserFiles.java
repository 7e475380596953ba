package org.polygpu.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * The one check of the files and directories a user names in options (NVRTC library, bandwidth matrix, topology,
 * device model, exports, kernel cache): each problem is an {@link IllegalArgumentException} saying
 * {@code <Option>=<path> <reason>} (or {@code <path> <reason>} for a file no option names, the option given as
 * null) with the operating system's reason (does not exist, is a directory, is a FIFO,
 * permission denied, not UTF-8 text), which the language reports as {@code polygpu cannot start: ...}.
 *
 * <p>Nothing here blocks: a FIFO or a device is refused from its attributes before it is opened, since reading a
 * FIFO nobody writes waits forever. An output may be a character device ({@code /dev/null} discards an export).
 * Stateless.
 */
public final class UserFiles {
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFSOCK = 0140000;

    private UserFiles() {
    }

    /**
     * {@code file} when it is a regular file this process may read.
     *
     * @throws IllegalArgumentException naming the option and saying why not
     */
    public static Path input(String option, Path file) {
        BasicFileAttributes attributes = attributes(option, file);
        if (attributes == null) {
            throw bad(option, file, "does not exist");
        }
        if (attributes.isDirectory()) {
            throw bad(option, file, "is a directory, not a file");
        }
        if (!attributes.isRegularFile()) {
            throw bad(option, file, "is " + kind(file) + ", not a regular file");
        }
        if (!Files.isReadable(file)) {
            throw bad(option, file, "cannot be read: permission denied");
        }
        return file;
    }

    /**
     * The contents of {@code file} as UTF-8 text, after {@link #input}: for option files polygpu parses (a
     * bandwidth matrix, a topology, a device model); the parser's own errors should name the option too.
     *
     * @throws IllegalArgumentException naming the option when the file cannot be read or is not text
     */
    public static String readText(String option, Path file) {
        input(option, file);
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
        } catch (CharacterCodingException e) {
            throw bad(option, file, "is not a text file (it is not UTF-8)");
        } catch (IOException e) {
            throw bad(option, file, "cannot be read: " + reason(e));
        }
    }

    /**
     * {@code file} when it is a readable shared library: a regular file that starts like an ELF file.
     *
     * @throws IllegalArgumentException naming the option and saying why not
     */
    public static Path library(String option, Path file) {
        input(option, file);
        byte[] magic;
        try (InputStream in = Files.newInputStream(file)) {
            magic = in.readNBytes(4);
        } catch (IOException e) {
            throw bad(option, file, "cannot be read: " + reason(e));
        }
        if (magic.length < 4 || magic[0] != 0x7f || magic[1] != 'E' || magic[2] != 'L' || magic[3] != 'F') {
            throw bad(option, file, "is not a shared library (an ELF file)");
        }
        return file;
    }

    /**
     * {@code file} when polygpu can write it later: not a directory, FIFO or socket, in an existing directory that
     * allows writing; an existing file must be writable. A character device such as {@code /dev/null} is accepted.
     *
     * @throws IllegalArgumentException naming the option and saying why not
     */
    public static Path output(String option, Path file) {
        return output(option, file.toString(), file);
    }

    /**
     * As {@link #output(String, Path)} for an option whose value {@code value} names {@code file} indirectly (the
     * prefix that {@code ExportDAG} adds {@code .dot} to).
     */
    public static Path output(String option, String value, Path file) {
        String subject = value.equals(file.toString()) ? option : option + "=" + value + " (file " + file + ")";
        BasicFileAttributes attributes = attributes(subject, file);
        if (attributes != null) {
            if (attributes.isDirectory()) {
                throw bad(subject, file, "is a directory, not a file");
            }
            if (!attributes.isRegularFile() && mode(file) != S_IFCHR) {
                throw bad(subject, file, "is " + kind(file) + ", not a regular file");
            }
            if (!Files.isWritable(file)) {
                throw bad(subject, file, "cannot be written: permission denied");
            }
            return file;
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw bad(subject, file, "cannot be created: " + (parent != null && Files.exists(parent)
                    ? parent + " is not a directory" : "its directory " + parent + " does not exist"));
        }
        if (!Files.isWritable(parent)) {
            throw bad(subject, file, "cannot be created in " + parent + ": permission denied");
        }
        return file;
    }

    /**
     * {@code directory} when it is a directory polygpu may write, or does not exist yet and can be created: its
     * nearest existing ancestor is a writable directory.
     *
     * @throws IllegalArgumentException naming the option and saying why not
     */
    public static Path directory(String option, Path directory) {
        Path d = directory.toAbsolutePath().normalize();
        while (d != null && attributes(option, d) == null) {
            d = d.getParent();
        }
        if (d == null) {
            throw bad(option, directory, "cannot be created: none of its parents exists");
        }
        if (!Files.isDirectory(d)) {
            throw bad(option, directory, d.equals(directory.toAbsolutePath().normalize())
                    ? "is " + kind(d) + ", not a directory" : "cannot be created: " + d + " is " + kind(d)
                    + ", not a directory");
        }
        if (!Files.isWritable(d)) {
            throw bad(option, directory, "cannot be written: " + d + ": permission denied");
        }
        return directory;
    }

    /** The operating system's reason for {@code e}, not only the path that most {@link IOException}s carry. */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason().toLowerCase(Locale.ROOT);
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** The file's attributes (a link's target's); null when it does not exist. */
    private static BasicFileAttributes attributes(String option, Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw bad(option, file, "cannot be read: " + reason(e));
        }
    }

    /** What a file that is neither regular nor a directory is, for a message. */
    private static String kind(Path file) {
        return switch (mode(file)) {
            case S_IFIFO -> "a FIFO (named pipe)";
            case S_IFCHR -> "a character device";
            case S_IFSOCK -> "a socket";
            default -> Files.isDirectory(file) ? "a directory" : Files.isRegularFile(file) ? "a regular file"
                    : "a special file";
        };
    }

    /** The file-type bits of the file's mode, or -1 where the file system does not give them. */
    private static int mode(Path file) {
        try {
            return (Integer) Files.getAttribute(file, "unix:mode") & S_IFMT;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    /**
     * The error for {@code file}: {@code subject} is the option's name, or its name and value when they differ, or
     * null for a file no option named (the caller says what it is).
     */
    private static IllegalArgumentException bad(String subject, Path file, String reason) {
        String what = subject == null ? file.toString() : subject.contains("=") ? subject : subject + "=" + file;
        return new IllegalArgumentException(what + " " + reason);
    }
}
