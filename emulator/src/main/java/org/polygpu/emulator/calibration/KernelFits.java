package org.polygpu.emulator.calibration;

import java.util.List;
import java.util.Locale;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.calibration.Measurement;
import org.polygpu.calibration.Measurements;
import org.polygpu.emulator.timing.AtomicSpec;
import org.polygpu.emulator.timing.ComputeSpec;
import org.polygpu.emulator.timing.MemorySpec;

/**
 * The fits of the kernel microbenchmarks. Every kernel time is first reduced to its execution time by removing the
 * launch cost: {@code exec = t - launch.deviceNs}, kept at least 5% of {@code t} against noise. Then, with {@code
 * f} the clock in cycles per nanosecond and {@code N} the SMs:
 * <ul>
 *   <li>{@code dramGBps = Σ bytes / Σ exec} over coalesced {@code load} and {@code store}; {@code smGBps} the same
 *       over {@code load-one-block} and {@code store-one-block}; {@code l2GBps = bytes / exec} of {@code load-l2}</li>
 *   <li>{@code dramLatencyNs}, {@code l2LatencyNs = exec / loads} of {@code chase-dram}, {@code chase-l2}</li>
 *   <li>sectors: {@code r(s) = (exec(s) / bytes(s)) / (exec(1) / bytes(1))}, the cost of a useful byte at stride
 *       {@code s} against coalesced, grows as {@code min(s, sectorBytes / 4)}: it doubles with the stride until the
 *       stride {@code s*} after which it grows by less than 1.5 times, and {@code sectorBytes = 4 s*}</li>
 *   <li>banks: the same rule on {@code shared}'s {@code exec(s) / exec(1)} up to stride 64 ({@code sharedBanks =
 *       s*}); a curve that never reaches 1.5 (no conflicts or sectors seen) keeps the reference's value</li>
 *   <li>{@code <class>PerClock = warp instructions / (N * exec * f)} of {@code <class>-independent};
 *       {@code dependentIssueCycles = exec * f / instructions} of {@code fp32-dependent}</li>
 *   <li>{@code sameAddressNs = exec / atomics} of {@code atomic addresses-1}: the timing model serialises every
 *       atomic on the busiest address, lane by lane ({@code AtomicTiming}); {@code perNs = atomics / exec} of one
 *       address per thread</li>
 * </ul>
 */
final class KernelFits {
    private static final double MIN_EXEC_FRACTION = 0.05;

    private final Measurements m;
    private final double launchNs;
    private final DeviceProperties device;
    private final double clockMhz;

    /** Fits to {@code measurements} with launches costing {@code launchNs} on SMs clocked at {@code clockMhz}. */
    KernelFits(Measurements measurements, double launchNs, double clockMhz) {
        this.m = measurements;
        this.launchNs = launchNs;
        this.device = measurements.device();
        this.clockMhz = clockMhz;
    }

    /** The measurement's execution time: its time less the launch cost. */
    double exec(Measurement x) {
        return Math.max(x.nanos() - launchNs, MIN_EXEC_FRACTION * x.nanos());
    }

    MemorySpec memory(ReferenceModel reference) {
        MemorySpec ref = reference.model().memory();
        double dram = bandwidth("load", "store", "stride-1");
        double sm = bandwidth("load-one-block", "store-one-block", "stride-1");
        Measurement l2 = only("load-l2");
        return new MemorySpec(dram, perUnit(only("chase-dram")), ref.l2Bytes(), l2.work() / exec(l2),
                perUnit(only("chase-l2")), sm, 4 * plateau(strideCosts("load", LOAD_STRIDES), ref.sectorBytes() / 4),
                plateau(strideCosts("shared", SHARED_STRIDES), ref.sharedBanks()));
    }

    ComputeSpec compute(ReferenceModel reference) {
        double fp32 = perClock("fp32");
        double fp64 = perClock("fp64");
        double integer = perClock("int32");
        double sfu = perClock("sfu");
        double issue = Math.max(reference.model().compute().issuePerClock(), Math.max(Math.max(fp32, fp64),
                Math.max(integer, sfu)));
        Measurement dependent = m.get("fp32-dependent", "one-warp-per-sm");
        return new ComputeSpec(issue, fp32, fp64, integer, sfu, exec(dependent) * cyclesPerNano() / dependent.work());
    }

    AtomicSpec atomics() {
        List<Measurement> rows = m.of("atomic");
        if (rows.size() < 2) {
            throw new IllegalArgumentException("the measurements need atomic on one address and on one per thread");
        }
        Measurement one = m.get("atomic", "addresses-1");
        Measurement spread = rows.getLast();
        return new AtomicSpec(exec(one) / one.work(), spread.work() / exec(spread));
    }

    /** The cost of a useful byte at each stride of {@code benchmark} against coalesced, in stride order. */
    double[] strideCosts(String benchmark, List<String> parameters) {
        Measurement base = m.get(benchmark, parameters.getFirst());
        double unit = exec(base) / base.work();
        return parameters.stream().mapToDouble(p -> {
            Measurement x = m.get(benchmark, p);
            return exec(x) / x.work() / unit;
        }).toArray();
    }

    /**
     * How much longer {@code benchmark}'s runs on 2, 4 and 8 streams take than on one, such as {@code 1.44 1.65
     * 2.10}; empty when not measured. Not fitted: the emulator shares a device between kernels by its own rules.
     */
    String streamRatios(String benchmark) {
        List<Measurement> rows = m.of(benchmark);
        if (rows.size() < 2) {
            return "";
        }
        double one = rows.getFirst().nanos();
        return costs(rows.stream().skip(1).mapToDouble(x -> x.nanos() / one).toArray());
    }

    /** A line saying how costs grow with the stride, such as {@code 1.0 2.0 4.0 8.0 8.0 8.0}. */
    static String costs(double[] costs) {
        StringBuilder b = new StringBuilder();
        for (double c : costs) {
            b.append(b.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.1f", c));
        }
        return b.toString();
    }

    static final List<String> LOAD_STRIDES = List.of("stride-1", "stride-2", "stride-4", "stride-8", "stride-16",
            "stride-32");
    static final List<String> SHARED_STRIDES = List.of("stride-1", "stride-2", "stride-4", "stride-8", "stride-16",
            "stride-32", "stride-64");

    /**
     * The stride {@code 1 << i} after which {@code costs} (at strides 1, 2, 4, ...) stop doubling: the first whose
     * successor costs less than 1.5 times as much; {@code otherwise} when they never reach 1.5.
     */
    static int plateau(double[] costs, int otherwise) {
        if (costs[costs.length - 1] < 1.5) {
            return otherwise;
        }
        for (int i = 0; i + 1 < costs.length; i++) {
            if (costs[i + 1] < 1.5 * costs[i]) {
                return 1 << i;
            }
        }
        return 1 << (costs.length - 1);
    }

    private double bandwidth(String a, String b, String parameter) {
        Measurement x = m.get(a, parameter);
        Measurement y = m.get(b, parameter);
        return (x.work() + y.work()) / (exec(x) + exec(y));
    }

    private double perClock(String instructionClass) {
        Measurement x = m.get(instructionClass + "-independent", "full-grid");
        return x.work() / (device.multiprocessors() * exec(x) * cyclesPerNano());
    }

    private double perUnit(Measurement x) {
        return exec(x) / x.work();
    }

    private Measurement only(String benchmark) {
        List<Measurement> rows = m.of(benchmark);
        if (rows.size() != 1) {
            throw new IllegalArgumentException("the measurements need one " + benchmark + ", got " + rows.size());
        }
        return rows.getFirst();
    }

    double cyclesPerNano() {
        return clockMhz / 1000;
    }
}
