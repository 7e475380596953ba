package org.polygpu.emulator.calibration;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.polygpu.calibration.Measurement;
import org.polygpu.calibration.Measurements;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.timing.LinkSpec;

/**
 * Measurements a device of known parameters would give, made from the equations the fit inverts (a kernel takes
 * the launch cost plus its work at the parameter's rate), with the sizes of the suite on a real GPU, and each time
 * multiplied by {@code 1 + noise * u} for {@code u} uniform in [-1, 1].
 */
final class SyntheticMeasurements {
    private final DeviceModel truth;
    private final double noise;
    private final Random random;
    private final List<Measurement> rows = new ArrayList<>();

    private SyntheticMeasurements(DeviceModel truth, double noise, long seed) {
        this.truth = truth;
        this.noise = noise;
        this.random = new Random(seed);
    }

    static Measurements of(DeviceModel truth, double noise, long seed) {
        return new SyntheticMeasurements(truth, noise, seed).build();
    }

    private Measurements build() {
        double launch = truth.launch().deviceNs();
        double f = truth.sm().cyclesPerNano();
        int sms = truth.sm().count();
        var mem = truth.memory();
        var c = truth.compute();
        double words = mem.sectorBytes() / 4.0;
        for (String kind : List.of("load", "store")) {
            for (int s : new int[] {1, 2, 4, 8, 16, 32, 0}) {
                double bytes = (256L << 20) / (s == 0 ? 32.0 : s);
                double cost = s == 0 ? words : Math.min(s, words);
                kernel(kind, s == 0 ? "scattered" : "stride-" + s, "bytes", bytes, bytes * cost / mem.dramGBps());
            }
            kernel(kind + "-one-block", "stride-1", "bytes", 16 << 20, (16 << 20) / mem.smGBps());
        }
        kernel("load-l2", "4194304", "bytes", 256 << 20, (256 << 20) / mem.l2GBps());
        kernel("chase-dram", "268435456", "loads", 2048, 2048 * mem.dramLatencyNs());
        kernel("chase-l2", "4194304", "loads", 2048, 2048 * mem.l2LatencyNs());
        double[] perClock = {c.fp32PerClock(), c.fp64PerClock(), c.integerPerClock(), c.sfuPerClock()};
        String[] classes = {"fp32", "fp64", "int32", "sfu"};
        for (int i = 0; i < classes.length; i++) {
            double instructions = sms * 32.0 * 8 * 8 * 512;
            kernel(classes[i] + "-independent", "full-grid", "warp-instructions", instructions,
                    instructions / (sms * perClock[i] * f));
            kernel(classes[i] + "-dependent", "one-warp-per-sm", "instructions-per-warp", 32768,
                    32768 * c.dependentIssueCycles() / f);
        }
        for (int s = 1; s <= 64; s *= 2) {
            double accesses = 2.0 * sms * 32 * 1024;
            kernel("shared", "stride-" + s, "warp-accesses", accesses,
                    accesses * Math.min(s, mem.sharedBanks()) / (sms * f));
        }
        double atomics = sms * 1024.0 * 64;
        for (long a : new long[] {1, 32, 1024, 32768, sms * 1024L}) {
            double serial = atomics / a * truth.atomics().sameAddressNs(); // the busiest address, lane by lane
            double spread = atomics / truth.atomics().perNs();
            kernel("atomic", "addresses-" + a, "atomics", atomics, a == 1 ? serial : Math.max(serial, spread));
        }
        add("launch-device", "empty", "launches", 100, launch);
        add("launch-host", "empty", "launches", 100, truth.launch().hostNs());
        for (String name : List.of("streams", "streams-compute")) {
            for (int k : new int[] {1, 2, 4, 8}) {
                add(name, Integer.toString(k), "kernels", k, launch + 50_000.0 * Math.max(1, k / 2.0));
            }
        }
        String[] kinds = {"copy-h2d-pinned", "copy-h2d-pageable", "copy-d2h-pinned", "copy-d2h-pageable", "copy-d2d"};
        var k = truth.copies();
        LinkSpec[] links = {k.hostToDevicePinned(), k.hostToDevicePageable(), k.deviceToHostPinned(),
                k.deviceToHostPageable(), k.deviceToDevice()};
        for (int i = 0; i < kinds.length; i++) {
            for (long bytes = 4096; bytes <= 64L << 20; bytes *= 4) {
                add(kinds[i], Long.toString(bytes), "bytes", bytes, links[i].nanos(bytes));
            }
        }
        return new Measurements(truth.properties(), "synthetic", "2026-11-28", rows);
    }

    private void kernel(String benchmark, String parameter, String unit, double work, double execNanos) {
        add(benchmark, parameter, unit, work, truth.launch().deviceNs() + execNanos);
    }

    private void add(String benchmark, String parameter, String unit, double work, double nanos) {
        double factor = noise == 0 ? 1 : 1 + noise * (2 * random.nextDouble() - 1);
        rows.add(new Measurement(benchmark, parameter, unit, work, nanos * factor));
    }
}
