package org.polygpu.lang.launcher.commands;

import java.io.PrintStream;
import org.polygpu.topology.InterconnectProfiler;

/**
 * A one-line progress bar redrawn in place with carriage returns, such as
 * {@code [####..........................] 12/80  GPU 0 → GPU 3}, ended with a newline when the work is done. Meant
 * for stderr, so that stdout stays clean for results.
 */
final class ProgressBar implements InterconnectProfiler.Progress {
    private static final int WIDTH = 30;

    private final PrintStream out;
    private int lastLength;

    ProgressBar(PrintStream out) {
        this.out = out;
    }

    @Override
    public void update(int done, int total, String step) {
        int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
        String line = "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + done + "/" + total + "  "
                + step;
        String padding = " ".repeat(Math.max(0, lastLength - line.length()));
        out.print("\r" + line + padding);
        lastLength = line.length();
        if (done == total) {
            out.println();
        }
        out.flush();
    }
}
