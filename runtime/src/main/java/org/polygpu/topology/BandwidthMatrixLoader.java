package org.polygpu.topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.polygpu.config.UserFiles;

/**
 * Reads a {@link BandwidthMatrix} from {@code From,To,Bandwidth} CSV text (GB/s, {@code -1} for the host, GPUs
 * {@code 0..n-1}), from a file or from one of the presets shipped as resources.
 *
 * <p>Follows GrCUDA: the number of GPUs is the largest GPU index plus one; every value is floored to whole GB/s;
 * each GPU pair becomes the average of its two directions (or the one direction listed); a host row {@code -1,d}
 * or {@code d,-1} gives both host entries of GPU {@code d}, averaged when both are listed; host-host is 0. Every
 * GPU pair and every GPU's host link must be listed in at least one direction.
 *
 * <p>The floor and the averaging are the policies' view, as in GrCUDA; {@link #resolveAsWritten} gives the values
 * as written, each direction of a link as listed (the other direction's when only one is), which an emulated
 * interconnect uses so that profiling it gives the file back.
 *
 * <p>Malformed text fails with an {@link IllegalArgumentException} naming the source and the line.
 * Stateless and thread-safe.
 */
public final class BandwidthMatrixLoader {
    private static final String HEADER = "From,To,Bandwidth";
    private static final int HOST = -1;
    /** Bounds the matrix allocated for a stray large index; far above any machine the runtime drives. */
    private static final int MAX_GPUS = 1024;
    private static final String PRESET_DIR = "presets/";
    /** Preset name or alias to resource file, in the order {@link #presetNames()} lists them. */
    private static final Map<String, String> PRESETS = presets();

    private BandwidthMatrixLoader() {
    }

    /**
     * Reads a CSV file.
     *
     * @throws IllegalArgumentException when the file does not exist, is not a readable regular text file (a directory,
     *                                  a FIFO, binary data) or is malformed, saying which
     */
    public static BandwidthMatrix load(Path file) {
        return load(file, true);
    }

    private static BandwidthMatrix load(Path file, boolean floor) {
        String text;
        try {
            text = UserFiles.readText(null, file);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bandwidth matrix file " + e.getMessage(), e);
        }
        return parse(text, file.toString(), floor);
    }

    /**
     * Parses CSV text.
     *
     * @param sourceName where the text comes from, quoted in error messages
     * @throws IllegalArgumentException naming the source and the line when the text is malformed
     */
    public static BandwidthMatrix parse(String csvText, String sourceName) {
        return parse(csvText, sourceName, true);
    }

    private static BandwidthMatrix parse(String csvText, String sourceName, boolean floor) {
        return new Rows(sourceName, floor).read(csvText).toMatrix();
    }

    /**
     * Loads a preset by name or alias (see {@link #presetNames()}).
     *
     * @throws IllegalArgumentException listing the preset names when there is no such preset
     */
    public static BandwidthMatrix preset(String name) {
        return preset(name, true);
    }

    static BandwidthMatrix preset(String name, boolean floor) {
        String file = PRESETS.get(name);
        if (file == null) {
            throw new IllegalArgumentException("unknown bandwidth matrix preset '" + name + "'; presets: "
                    + String.join(", ", presetNames()));
        }
        try (InputStream in = BandwidthMatrixLoader.class.getResourceAsStream(PRESET_DIR + file)) {
            if (in == null) {
                throw new IllegalStateException("bandwidth matrix preset resource " + file + " is missing");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "preset " + file, floor);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read bandwidth matrix preset " + file, e);
        }
    }

    /** Every name {@link #preset(String)} accepts: the file names without {@code .csv}, then the short aliases. */
    public static List<String> presetNames() {
        return List.copyOf(PRESETS.keySet());
    }

    /**
     * Loads a preset when {@code pathOrPreset} is a preset name, otherwise the file at that path, otherwise the
     * cluster it names ({@link ClusterTopology}: {@code 4xh100x8}).
     *
     * @throws IllegalArgumentException when it is neither a preset nor an existing file (the message lists the
     *                                  presets), or when the file is malformed
     */
    public static BandwidthMatrix resolve(String pathOrPreset) {
        return resolve(pathOrPreset, true);
    }

    /**
     * As {@link #resolve}, with the values as written: not floored to whole GB/s and not averaged over a link's two
     * directions. The interconnect an emulator models, where the floor and the average, which belong to the policies'
     * view, would move a link by up to 1 GB/s or a few percent.
     */
    public static BandwidthMatrix resolveAsWritten(String pathOrPreset) {
        return resolve(pathOrPreset, false);
    }

    private static BandwidthMatrix resolve(String pathOrPreset, boolean floor) {
        if (PRESETS.containsKey(pathOrPreset)) {
            return preset(pathOrPreset, floor);
        }
        Path file = Path.of(pathOrPreset);
        if (!Files.exists(file) && ClusterTopology.isClusterName(pathOrPreset)) {
            return ClusterTopology.parse(pathOrPreset).matrix(floor);
        }
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("bandwidth matrix '" + pathOrPreset
                    + "' is neither an existing file nor a preset; presets: " + String.join(", ", presetNames())
                    + "; clusters: <nodes>x<node preset>, for example 4xh100x8");
        }
        return load(file, floor);
    }

    private static Map<String, String> presets() {
        String[][] aliases = {
            {"v100x8-nvlink-hybrid-cube-mesh", "v100x8"},
            {"a100x8-nvswitch", "a100x8"},
            {"h100x8-nvswitch", "h100x8"},
            {"h100x1-pcie5", "h100x1"},
            {"test-2gpu", "test-2gpu"},
        };
        Map<String, String> byName = new LinkedHashMap<>();
        for (String[] a : aliases) {
            byName.put(a[0], a[0] + ".csv");
        }
        for (String[] a : aliases) {
            byName.putIfAbsent(a[1], a[0] + ".csv");
        }
        return byName;
    }

    /**
     * The rows of one CSV text as a square array of bandwidths, NaN where no row was given; GPUs first and the host in
     * the last slot once {@link #toMatrix()} knows the GPU count. Unless read as written, values are floored and the
     * two directions of a link averaged.
     */
    private static final class Rows {
        private final String source;
        /** Floor values and average directions (the policies' view), or keep them as written. */
        private final boolean floor;
        /** Bandwidth by (from + 1, to + 1), so the host is slot 0 while the GPU count is still unknown. */
        private double[][] slots = new double[0][];
        /** Line of each row by the same slots, to report duplicates. */
        private int[][] lines = new int[0][];
        private int maxGpu = -1;

        Rows(String source, boolean floor) {
            this.source = source;
            this.floor = floor;
        }

        Rows read(String text) {
            String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
            String[] textLines = body.split("\r?\n|\r", -1);
            if (body.isBlank()) {
                throw error(1, "the file is empty; expected the header " + HEADER);
            }
            if (!textLines[0].strip().equals(HEADER)) {
                throw error(1, "expected the header " + HEADER + ", found '" + textLines[0].strip() + "'");
            }
            int rows = 0;
            for (int i = 1; i < textLines.length; i++) {
                if (!textLines[i].isBlank()) {
                    readRow(textLines[i], i + 1);
                    rows++;
                }
            }
            if (rows == 0) {
                throw error(1, "no bandwidth rows follow the header " + HEADER);
            }
            return this;
        }

        private void readRow(String line, int lineNumber) {
            String[] cells = line.split(",", -1);
            if (cells.length != 3) {
                throw error(lineNumber, "expected 3 columns " + HEADER + ", found " + cells.length);
            }
            int from = endpoint(cells[0].strip(), "From", lineNumber);
            int to = endpoint(cells[1].strip(), "To", lineNumber);
            if (from == HOST && to == HOST) {
                throw error(lineNumber, "a host-to-host row is not allowed (the host-host entry is always 0)");
            }
            double bandwidth = bandwidth(cells[2].strip(), lineNumber);
            maxGpu = Math.max(maxGpu, Math.max(from, to));
            ensureSlots(maxGpu + 2);
            int previous = lines[from + 1][to + 1];
            if (previous != 0) {
                throw error(lineNumber, "duplicate row " + from + "," + to + " (first given on line " + previous + ")");
            }
            slots[from + 1][to + 1] = floor ? Math.floor(bandwidth) : bandwidth;
            lines[from + 1][to + 1] = lineNumber;
        }

        private int endpoint(String cell, String column, int lineNumber) {
            int value;
            try {
                value = Integer.parseInt(cell);
            } catch (NumberFormatException e) {
                throw error(lineNumber, column + " must be -1 (host) or a GPU index, found '" + cell + "'");
            }
            if (value < HOST || value >= MAX_GPUS) {
                throw error(lineNumber, column + " must be -1 (host) or a GPU index in 0.." + (MAX_GPUS - 1)
                        + ", found " + value);
            }
            return value;
        }

        private double bandwidth(String cell, int lineNumber) {
            double value;
            try {
                value = Double.parseDouble(cell);
            } catch (NumberFormatException e) {
                throw error(lineNumber, "Bandwidth must be a number of GB/s, found '" + cell + "'");
            }
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw error(lineNumber, "Bandwidth must be finite and non-negative, found " + cell);
            }
            return value;
        }

        private void ensureSlots(int needed) {
            if (needed <= slots.length) {
                return;
            }
            int size = Math.max(needed, 2 * slots.length);
            double[][] grownSlots = new double[size][size];
            int[][] grownLines = new int[size][size];
            for (int i = 0; i < size; i++) {
                Arrays.fill(grownSlots[i], Double.NaN);
                if (i < slots.length) {
                    System.arraycopy(slots[i], 0, grownSlots[i], 0, slots.length);
                    System.arraycopy(lines[i], 0, grownLines[i], 0, lines.length);
                }
            }
            slots = grownSlots;
            lines = grownLines;
        }

        BandwidthMatrix toMatrix() {
            if (maxGpu < 0) {
                throw new IllegalArgumentException(source + ": no GPU is listed, only the host");
            }
            int gpus = maxGpu + 1;
            double[][] m = new double[gpus + 1][gpus + 1];
            for (int i = 0; i < gpus; i++) {
                for (int j = i; j < gpus; j++) {
                    String pair = "GPU " + i + " and GPU " + j;
                    m[i][j] = link(i + 1, j + 1, pair, i + "," + j, j + "," + i);
                    m[j][i] = link(j + 1, i + 1, pair, j + "," + i, i + "," + j);
                }
                String host = "the host and GPU " + i;
                m[gpus][i] = link(0, i + 1, host, "-1," + i, i + ",-1");
                m[i][gpus] = link(i + 1, 0, host, i + ",-1", "-1," + i);
            }
            return new BandwidthMatrix(m);
        }

        /**
         * The bandwidth from slot a to slot b: the average of both directions (as written: a to b), or the one
         * direction listed.
         */
        private double link(int a, int b, String pair, String forward, String backward) {
            double ab = slots[a][b];
            double ba = slots[b][a];
            if (Double.isNaN(ab) && Double.isNaN(ba)) {
                throw new IllegalArgumentException(source + ": no bandwidth between " + pair + "; list " + forward
                        + (forward.equals(backward) ? "" : " or " + backward));
            }
            if (Double.isNaN(ab)) {
                return ba;
            }
            return Double.isNaN(ba) || !floor ? ab : (ab + ba) / 2;
        }

        private IllegalArgumentException error(int lineNumber, String message) {
            return new IllegalArgumentException(source + ", line " + lineNumber + ": " + message);
        }
    }
}
