package org.polygpu.bench.fidelity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The emulator against a calibration directory's measurements: per kernel row real vs emulated, and the figures the
 * fidelity targets are about. The error of a row is {@code max(real, emulated) / min(real, emulated)} (1 is exact).
 *
 * @param kernels     every kernel row
 * @param concurrency every concurrency row, the emulated time plus the measurement's one-stream overhead
 * @param copies      every copy row
 */
public record FidelityReport(List<Compared> kernels, List<Compared> concurrency, List<Compared> copies) {
    /** Kernel rows at least this long (real, per launch in a batch) are the accuracy target's. */
    public static final double LONG_KERNEL_US = 20;

    /** One row: what it is, the real and the emulated microseconds. */
    public record Compared(String what, double realUs, double emulatedUs) {
        /** {@code max / min} of the two, 1 when equal. */
        public double error() {
            return Math.max(realUs, emulatedUs) / Math.min(realUs, emulatedUs);
        }

        /** emulated / real. */
        public double ratio() {
            return emulatedUs / realUs;
        }
    }

    /** The kernel rows of at least {@value #LONG_KERNEL_US} us. */
    public List<Compared> longKernels() {
        return kernels.stream().filter(c -> c.realUs() >= LONG_KERNEL_US).toList();
    }

    /** The kernel rows under {@value #LONG_KERNEL_US} us (launch-bound). */
    public List<Compared> launchBound() {
        return kernels.stream().filter(c -> c.realUs() < LONG_KERNEL_US).toList();
    }

    /** The copy rows of at least 64 KiB. */
    public List<Compared> copiesFrom64KiB() {
        return copies.stream().filter(c -> bytesOf(c.what()) >= 65536).toList();
    }

    /** The geometric mean of the rows' errors. */
    public static double geometricMean(List<Compared> rows) {
        return Math.exp(rows.stream().mapToDouble(c -> Math.log(c.error())).average().orElse(0));
    }

    /** The largest error of the rows. */
    public static double worst(List<Compared> rows) {
        return rows.stream().mapToDouble(Compared::error).max().orElse(1);
    }

    /** The largest relative difference {@code |emulated - real| / real} of the rows. */
    public static double worstRelative(List<Compared> rows) {
        return rows.stream().mapToDouble(c -> Math.abs(c.ratio() - 1)).max().orElse(0);
    }

    /** Prints the tables and the summary as Markdown. */
    public void print(Consumer<String> out) {
        out.accept("| kernel | size | grid | real us | emulated us | emulated / real |");
        out.accept("|---|---|---:|---:|---:|---:|");
        for (Compared c : kernels) {
            String[] p = c.what().split(" \\| ");
            out.accept(String.format(Locale.ROOT, "| %s | %s | %s | %.1f | %.1f | %.2f |", p[0], p[1], p[2],
                    c.realUs(), c.emulatedUs(), c.ratio()));
        }
        out.accept("");
        out.accept("| concurrency | real us | emulated us + one-stream overhead | emulated / real |");
        out.accept("|---|---:|---:|---:|");
        concurrency.forEach(c -> out.accept(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.2f |", c.what(),
                c.realUs(), c.emulatedUs(), c.ratio())));
        out.accept("");
        out.accept("| copy | real us | emulated us | emulated / real |");
        out.accept("|---|---:|---:|---:|");
        copies.forEach(c -> out.accept(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.2f |", c.what(),
                c.realUs(), c.emulatedUs(), c.ratio())));
        out.accept("");
        for (String line : summary()) {
            out.accept(line);
        }
    }

    /** The figures the targets are about, one per line. */
    public List<String> summary() {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "kernels >= %.0f us (%d rows): geometric-mean error %.2fx, worst %.2fx",
                LONG_KERNEL_US, longKernels().size(), geometricMean(longKernels()), worst(longKernels())));
        lines.add(String.format(Locale.ROOT, "launch-bound kernels (%d rows): geometric-mean error %.2fx, worst %.2fx",
                launchBound().size(), geometricMean(launchBound()), worst(launchBound())));
        lines.add(String.format(Locale.ROOT, "concurrency (%d rows): worst difference %.0f%%", concurrency.size(),
                100 * worstRelative(concurrency)));
        lines.add(String.format(Locale.ROOT, "copies >= 64 KiB (%d rows): worst difference %.0f%%",
                copiesFrom64KiB().size(), 100 * worstRelative(copiesFrom64KiB())));
        return lines;
    }

    /** The byte count a copy row's description starts with ({@code 65536 B h2d pinned}). */
    static long bytesOf(String what) {
        return Long.parseLong(what.substring(0, what.indexOf(' ')));
    }
}
