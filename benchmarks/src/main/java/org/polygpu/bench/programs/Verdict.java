package org.polygpu.bench.programs;

/** The outcome of one benchmark run: whether it matched the CPU reference, and how closely. */
public record Verdict(String benchmark, int size, int partitions, int gpus, boolean ok, String detail) {
    /** The line every host language prints, e.g. {@code vec size=1000 partitions=16 gpus=4: ... OK}. */
    public String line() {
        return benchmark + " size=" + size + " partitions=" + partitions + " gpus=" + gpus + ": " + detail + " "
                + (ok ? "OK" : "FAIL");
    }
}
