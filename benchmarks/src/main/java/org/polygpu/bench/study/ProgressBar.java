package org.polygpu.bench.study;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar redrawn in place with carriage returns, such as
 * {@code [####..........................] 12/80  1m05s  vec v100x8 4 GPUs round-robin}, ended with a newline when
 * the work is done. Meant for stderr, so that stdout stays clean for results; the elapsed time is the only
 * wall-clock figure the study shows, and it goes nowhere else.
 */
final class ProgressBar {
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final long started = System.nanoTime();
    private int lastLength;

    ProgressBar(PrintStream out) {
        this.out = out;
    }

    /** Shows {@code done} of {@code total} steps, and {@code step}, the one under way (or the last, when done). */
    void update(int done, int total, String step) {
        int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        String line = "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + done + "/" + total + "  "
                + String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60) + "  " + step;
        String padding = " ".repeat(Math.max(0, lastLength - line.length()));
        out.print("\r" + line + padding);
        lastLength = line.length();
        if (done == total) {
            out.println();
        }
        out.flush();
    }
}
