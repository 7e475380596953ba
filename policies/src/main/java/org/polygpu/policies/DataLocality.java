package org.polygpu.policies;

import java.util.Arrays;
import org.polygpu.sched.spi.Locations;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;
import org.polygpu.topology.BandwidthMatrix;

/**
 * Where a computation's argument bytes already are, as the data-aware policies see it: the bytes each device holds,
 * the exploration threshold of §III-B3, and the transfer-time estimate over the bandwidth matrix.
 *
 * <p>An instance keeps a per-device scratch array so that a decision allocates nothing; it belongs to one policy
 * and, like it, is not thread-safe. {@link #linkBandwidth} is stateless.
 */
public final class DataLocality {
    private final BandwidthMatrix bandwidth;
    private final int deviceCount;
    private final double dataThreshold;
    /** Bytes of the current request held by each candidate device; valid after {@link #devicesWithEnoughData}. */
    private final long[] held;

    DataLocality(PolicySettings settings) {
        this.bandwidth = settings.bandwidth();
        this.deviceCount = settings.deviceCount();
        this.dataThreshold = settings.dataThreshold();
        this.held = new long[deviceCount];
    }

    /**
     * The bandwidth in GB/s at which an argument reaches {@code device}: {@code +infinity} when it is already valid
     * there or valid nowhere (a fresh array needs no copy); otherwise the slowest (min-max) or fastest (min-min)
     * link from one of its valid locations.
     *
     * @param validMask locations holding a valid copy: bit {@code d} for GPU {@code d}, bit {@code gpuCount} for
     *                  the host (see {@link Locations})
     * @param slowest   whether to assume the slowest link rather than the fastest
     */
    public static double linkBandwidth(BandwidthMatrix matrix, long validMask, int device, boolean slowest) {
        if (device < 0 || device >= matrix.gpuCount()) {
            throw new IllegalArgumentException("device " + device + " is not a GPU of a " + matrix.gpuCount()
                    + "-GPU bandwidth matrix");
        }
        int host = matrix.hostIndex();
        long sources = host >= Long.SIZE - 1 ? validMask : validMask & ((1L << (host + 1)) - 1);
        if (sources == 0 || Locations.contains(sources, device)) {
            return Double.POSITIVE_INFINITY;
        }
        double chosen = slowest ? Double.POSITIVE_INFINITY : 0;
        for (long m = sources; m != 0; m &= m - 1) {
            double link = matrix.bandwidth(Long.numberOfTrailingZeros(m), device);
            chosen = slowest ? Math.min(chosen, link) : Math.max(chosen, link);
        }
        return chosen;
    }

    /**
     * The candidates holding strictly more than the threshold fraction of the argument bytes, or 0 when none does
     * (the caller then explores with round-robin). Records the bytes each candidate holds for {@link #mostHeld}.
     */
    long devicesWithEnoughData(SelectionRequest request, long candidates) {
        Arrays.fill(held, 0);
        long[] bytes = request.argumentBytes();
        long[] valid = request.validLocations();
        long total = 0;
        for (int a = 0; a < bytes.length; a++) {
            total += bytes[a];
            for (long m = valid[a] & candidates; m != 0; m &= m - 1) {
                held[Long.numberOfTrailingZeros(m)] += bytes[a];
            }
        }
        long enough = 0;
        if (total > 0) {
            for (long m = candidates; m != 0; m &= m - 1) {
                int device = Long.numberOfTrailingZeros(m);
                if ((double) held[device] / total > dataThreshold) {
                    enough |= 1L << device;
                }
            }
        }
        return enough;
    }

    /** Of {@code devices}, the one holding the most bytes, ties to the lowest index. */
    int mostHeld(long devices) {
        int best = -1;
        for (long m = devices; m != 0; m &= m - 1) {
            int device = Long.numberOfTrailingZeros(m);
            if (best < 0 || held[device] > held[best]) {
                best = device;
            }
        }
        return best;
    }

    /** Of {@code devices}, the one with the least estimated transfer time, ties to the lowest index. */
    int leastTransferTime(SelectionRequest request, long devices, boolean slowest) {
        int best = -1;
        double bestTime = Double.POSITIVE_INFINITY;
        for (long m = devices; m != 0; m &= m - 1) {
            int device = Long.numberOfTrailingZeros(m);
            double time = transferTime(request, device, slowest);
            if (best < 0 || time < bestTime) {
                best = device;
                bestTime = time;
            }
        }
        return best;
    }

    /**
     * The time to bring every argument to {@code device}, in bytes per GB/s: the sum of each argument's size over
     * its {@link #linkBandwidth}. Only its order matters, so the unit is left unscaled.
     */
    double transferTime(SelectionRequest request, int device, boolean slowest) {
        long[] bytes = request.argumentBytes();
        long[] valid = request.validLocations();
        long hostBit = Locations.host(deviceCount);
        long locations = hostBit | Locations.allDevices(deviceCount);
        double time = 0;
        for (int a = 0; a < bytes.length; a++) {
            // Local and fresh arguments cost nothing; skipping them also avoids 0 / 0 on a zero-bandwidth link.
            long sources = valid[a] & locations;
            if (bytes[a] != 0 && sources != 0 && !Locations.contains(sources, device)) {
                time += bytes[a] / linkBandwidth(bandwidth, sources, device, slowest);
            }
        }
        return time;
    }
}
