package org.polygpu.topology;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/**
 * Measures the interconnect bandwidth matrix of any {@link Backend}: host to device and device to host from the
 * backend's (pinned) host memory for every device, every ordered pair of devices (peer copies), and a copy within
 * each device on the diagonal — in the {@code From,To,Bandwidth} sense of {@link BandwidthMatrix}: bytes copied
 * per second, as GrCUDA's matrix counts them.
 *
 * <p>Method. Each link is timed with the backend's events ({@link Backend#elapsedMillis}) around one copy, for two
 * sizes: the configured size {@code L} and {@code S = L / 4}. After the warm-up copies, the sizes alternate for the
 * configured number of repetitions, and the bandwidth is the slope {@code (L - S) / (median t(L) - median t(S))}:
 * a copy's fixed costs (launch latency, the DMA set-up, the event records) cancel out, so small copies and short
 * links are not biased low. Copies run one at a time, each waited for, so no two share a link. On the emulator the
 * events read the virtual clock, which makes the result exact up to nanosecond rounding.
 *
 * <p>Memory: one link is measured at a time with buffers of {@code L} bytes allocated for it and freed after, so
 * at most two device buffers and one host buffer exist at once. Not thread-safe; the backend must not be used by
 * others while profiling.
 */
public final class InterconnectProfiler {
    private final Backend backend;
    private final Settings settings;

    /**
     * How to measure.
     *
     * @param bytes   the larger copy size {@code L}, at least 4096 bytes
     * @param warmups untimed copies of each size per link
     * @param repeats timed copies of each size per link, at least 1 (the median is used)
     */
    public record Settings(long bytes, int warmups, int repeats) {
        public static final long MIN_BYTES = 4096;

        public Settings {
            if (bytes < MIN_BYTES) {
                throw new IllegalArgumentException("the profiling copy size must be at least " + MIN_BYTES
                        + " bytes, got " + bytes);
            }
            if (warmups < 0) {
                throw new IllegalArgumentException("warm-up copies must be at least 0, got " + warmups);
            }
            if (repeats < 1) {
                throw new IllegalArgumentException("repetitions must be at least 1, got " + repeats);
            }
        }

        /**
         * The defaults for {@code backend}'s clock: on a real one 64 MiB copies, 2 warm-ups and 10 repetitions (the
         * median of 10 is stable to a few percent); on a virtual one, which is exact (the emulator's), 4 MiB, 1 and 3.
         */
        public static Settings defaults(Backend backend) {
            return switch (backend.clock()) {
                case REAL -> new Settings(64L << 20, 2, 10);
                case VIRTUAL -> new Settings(4L << 20, 1, 3);
            };
        }

        public Settings withBytes(long newBytes) {
            return new Settings(newBytes, warmups, repeats);
        }

        public Settings withRepeats(int newRepeats) {
            return new Settings(bytes, warmups, newRepeats);
        }
    }

    /** Told before each link is measured and once at the end ({@code done == total}). */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (done, total, step) -> { };

        /**
         * @param done  links measured so far
         * @param total links to measure
         * @param step  what is measured next, e.g. {@code GPU 0 → GPU 1}, or {@code done}
         */
        void update(int done, int total, String step);
    }

    public InterconnectProfiler(Backend backend, Settings settings) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Measures every link; {@code progress} hears of each. */
    public InterconnectProfile profile(Progress progress) {
        int n = backend.deviceCount();
        int total = 2 * n + n * n;
        int done = 0;
        double[][] gbps = new double[n + 1][n + 1];
        for (int d = 0; d < n; d++) {
            progress.update(done++, total, "host → GPU " + d);
            gbps[n][d] = measure(-1, d);
            progress.update(done++, total, "GPU " + d + " → host");
            gbps[d][n] = measure(d, -1);
        }
        for (int from = 0; from < n; from++) {
            for (int to = 0; to < n; to++) {
                progress.update(done++, total, from == to ? "GPU " + from + " on-device"
                        : "GPU " + from + " → GPU " + to);
                gbps[from][to] = measure(from, to);
            }
        }
        progress.update(total, total, "done");
        return new InterconnectProfile(gbps, settings.bytes(), settings.repeats());
    }

    /** GB/s from {@code from} to {@code to} ({@code -1} = host). */
    private double measure(int from, int to) {
        try (Link link = new Link(from, to)) {
            long large = settings.bytes();
            long small = large / 4;
            for (int i = 0; i < settings.warmups(); i++) {
                link.time(large);
                link.time(small);
            }
            double[] largeMillis = new double[settings.repeats()];
            double[] smallMillis = new double[settings.repeats()];
            for (int i = 0; i < settings.repeats(); i++) {
                largeMillis[i] = link.time(large);
                smallMillis[i] = link.time(small);
            }
            double tLarge = median(largeMillis);
            double slopeMillis = tLarge - median(smallMillis);
            // Noise on a real GPU can make the difference vanish; the large copy alone is then a lower bound.
            return slopeMillis > 0 ? (large - small) / (slopeMillis * 1e6) : large / (tLarge * 1e6);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** The buffers, stream and events of one measured link, released by {@link #close()}. */
    private final class Link implements AutoCloseable {
        private final int from;
        private final int to;
        private final int device;
        private final OperationLabel label;
        private MemorySegment host;
        private DeviceBuffer source;
        private DeviceBuffer destination;
        private StreamHandle stream;
        private EventHandle start;
        private EventHandle end;

        Link(int from, int to) {
            this.from = from;
            this.to = to;
            // Copies run on a stream of the destination's device, or of the source's when copying to the host.
            this.device = to >= 0 ? to : from;
            this.label = new OperationLabel(-1, "profile " + (from < 0 ? "host" : "GPU " + from) + " → "
                    + (to < 0 ? "host" : "GPU " + to));
            try {
                long bytes = settings.bytes();
                if (from < 0 || to < 0) {
                    host = backend.allocateHost(bytes);
                }
                if (from >= 0) {
                    source = backend.allocate(from, bytes);
                }
                if (to >= 0) {
                    destination = backend.allocate(to, bytes);
                }
                stream = backend.createStream(device);
                start = backend.createEvent(device);
                end = backend.createEvent(device);
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }

        /** Milliseconds of one copy of {@code bytes}, waited for. */
        double time(long bytes) {
            backend.recordEvent(start, stream);
            if (from < 0) {
                backend.copyHostToDevice(host, destination, bytes, stream, label);
            } else if (to < 0) {
                backend.copyDeviceToHost(source, host, bytes, stream, label);
            } else {
                backend.copyDeviceToDevice(source, destination, bytes, stream, label);
            }
            backend.recordEvent(end, stream);
            backend.synchronizeEvent(end);
            return backend.elapsedMillis(start, end);
        }

        @Override
        public void close() {
            if (stream != null) {
                backend.synchronizeAll();
            }
            if (end != null) {
                backend.destroyEvent(end);
            }
            if (start != null) {
                backend.destroyEvent(start);
            }
            if (stream != null) {
                backend.destroyStream(stream);
            }
            if (destination != null) {
                backend.free(destination);
            }
            if (source != null) {
                backend.free(source);
            }
            if (host != null) {
                backend.freeHost(host);
            }
        }
    }
}
