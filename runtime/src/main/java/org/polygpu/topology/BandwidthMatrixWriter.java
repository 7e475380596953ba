package org.polygpu.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Writes bandwidth matrices as the {@code From,To,Bandwidth} CSV that {@link BandwidthMatrixLoader} reads (GB/s,
 * {@code -1} for the host): for every GPU {@code d} the rows {@code -1,d} (host to device), {@code d,-1} (device to
 * host) and {@code d,j} for every GPU {@code j} including itself.
 *
 * <p>Round trip. Values are written with two decimals (10 MB/s, far finer than any measurement), rounded half up,
 * so that a measurement a hair under a whole number (23.998) is not floored a whole GB/s lower by the loader; the
 * loader then floors each row and averages the two directions of a link. Loading what
 * {@link #toCsv(BandwidthMatrix)} wrote gives back the matrix with every entry floored. Stateless and thread-safe.
 */
public final class BandwidthMatrixWriter {
    private static final String HEADER = "From,To,Bandwidth";

    private BandwidthMatrixWriter() {
    }

    /** Both measured directions of every link. */
    public static String toCsv(InterconnectProfile profile) {
        int n = profile.gpuCount();
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (int d = 0; d < n; d++) {
            row(csv, -1, d, profile.bandwidth(-1, d));
            row(csv, d, -1, profile.bandwidth(d, -1));
            for (int j = 0; j < n; j++) {
                row(csv, d, j, profile.bandwidth(d, j));
            }
        }
        return csv.toString();
    }

    /** A matrix the runtime uses (host last). */
    public static String toCsv(BandwidthMatrix matrix) {
        int n = matrix.gpuCount();
        int host = matrix.hostIndex();
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (int d = 0; d < n; d++) {
            row(csv, -1, d, matrix.bandwidth(host, d));
            row(csv, d, -1, matrix.bandwidth(d, host));
            for (int j = 0; j < n; j++) {
                row(csv, d, j, matrix.bandwidth(d, j));
            }
        }
        return csv.toString();
    }

    /**
     * Writes {@code csv} to {@code file}, creating its directory; the file is replaced atomically where the file
     * system allows, so a reader never sees half a matrix.
     *
     * @throws UncheckedIOException naming the file when it cannot be written
     */
    public static void write(String csv, Path file) {
        Path target = file.toAbsolutePath();
        try {
            Files.createDirectories(target.getParent());
            Path temporary = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
            try {
                Files.writeString(temporary, csv, StandardCharsets.UTF_8);
                move(temporary, target);
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the bandwidth matrix to " + target + ": " + e, e);
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void row(StringBuilder csv, int from, int to, double gbps) {
        csv.append(from).append(',').append(to).append(',')
                .append(String.format(Locale.ROOT, "%.2f", gbps)).append('\n');
    }
}
