package org.polygpu.policies;

import java.util.Arrays;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;
import org.polygpu.topology.BandwidthMatrix;

/**
 * Where a computation's argument bytes already are, as the data-aware policies see it: the bytes each device holds,
 * the exploration threshold of §III-B3, and the transfer-time estimate over the bandwidth matrix.
 *
 * <p>An instance keeps a per-device scratch array so that a decision allocates no more than the set of devices
 * holding enough data; it belongs to one policy and, like it, is not thread-safe. {@link #linkBandwidth} is stateless.
 */
public final class DataLocality {
    private final BandwidthMatrix bandwidth;
    private final int deviceCount;
    private final double dataThreshold;
    /** Bytes of the current request held by each candidate device; valid after {@link #devicesWithEnoughData}. */
    private final long[] held;
    /** Every device and the host. */
    private final LocationSet locations;

    DataLocality(PolicySettings settings) {
        this.bandwidth = settings.bandwidth();
        this.deviceCount = settings.deviceCount();
        this.dataThreshold = settings.dataThreshold();
        this.held = new long[deviceCount];
        this.locations = LocationSet.range(0, deviceCount + 1);
    }

    /**
     * The bandwidth in GB/s at which an argument reaches {@code device}: {@code +infinity} when it is already valid
     * there or valid nowhere (a fresh array needs no copy); otherwise the slowest (min-max) or fastest (min-min)
     * link from one of its valid locations.
     *
     * @param valid   locations holding a valid copy: {@code d} for GPU {@code d}, {@code gpuCount} for the host
     *                (see {@link LocationSet}); locations past the host's are ignored
     * @param slowest whether to assume the slowest link rather than the fastest
     */
    public static double linkBandwidth(BandwidthMatrix matrix, LocationSet valid, int device, boolean slowest) {
        if (device < 0 || device >= matrix.gpuCount()) {
            throw new IllegalArgumentException("device " + device + " is not a GPU of a " + matrix.gpuCount()
                    + "-GPU bandwidth matrix");
        }
        int host = matrix.hostIndex();
        int first = valid.first();
        if (first < 0 || first > host || valid.contains(device)) {
            return Double.POSITIVE_INFINITY;
        }
        double chosen = slowest ? Double.POSITIVE_INFINITY : 0;
        for (int from = first; from >= 0 && from <= host; from = valid.next(from + 1)) {
            double link = matrix.bandwidth(from, device);
            chosen = slowest ? Math.min(chosen, link) : Math.max(chosen, link);
        }
        return chosen;
    }

    /**
     * The candidates holding strictly more than the threshold fraction of the argument bytes, or 0 when none does
     * (the caller then explores with round-robin). Records the bytes each candidate holds for {@link #mostHeld}.
     */
    LocationSet devicesWithEnoughData(SelectionRequest request, LocationSet candidates) {
        Arrays.fill(held, 0);
        long[] bytes = request.argumentBytes();
        LocationSet[] valid = request.validLocations();
        long total = 0;
        for (int a = 0; a < bytes.length; a++) {
            total += bytes[a];
            for (int d = valid[a].first(); d >= 0; d = valid[a].next(d + 1)) {
                if (candidates.contains(d)) {
                    held[d] += bytes[a];
                }
            }
        }
        if (total == 0) {
            return LocationSet.EMPTY;
        }
        LocationSet.Builder enough = new LocationSet.Builder();
        for (int device = candidates.first(); device >= 0; device = candidates.next(device + 1)) {
            if ((double) held[device] / total > dataThreshold) {
                enough.add(device);
            }
        }
        return enough.build();
    }

    /** Of {@code devices}, the one holding the most bytes, ties to the lowest index. */
    int mostHeld(LocationSet devices) {
        int best = -1;
        for (int device = devices.first(); device >= 0; device = devices.next(device + 1)) {
            if (best < 0 || held[device] > held[best]) {
                best = device;
            }
        }
        return best;
    }

    /** Of {@code devices}, the one with the least estimated transfer time, ties to the lowest index. */
    int leastTransferTime(SelectionRequest request, LocationSet devices, boolean slowest) {
        int best = -1;
        double bestTime = Double.POSITIVE_INFINITY;
        for (int device = devices.first(); device >= 0; device = devices.next(device + 1)) {
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
        LocationSet[] valid = request.validLocations();
        double time = 0;
        for (int a = 0; a < bytes.length; a++) {
            // Local and fresh arguments cost nothing; skipping them also avoids 0 / 0 on a zero-bandwidth link.
            LocationSet sources = valid[a].intersection(locations);
            if (bytes[a] != 0 && !sources.isEmpty() && !sources.contains(device)) {
                time += bytes[a] / linkBandwidth(bandwidth, sources, device, slowest);
            }
        }
        return time;
    }
}
