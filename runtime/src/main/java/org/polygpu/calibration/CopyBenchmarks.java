package org.polygpu.calibration;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;

/**
 * Copies of 4 KiB up to {@link CalibrationSettings#maxCopyBytes()} (by factors of 4): host to device and device to
 * host from pinned host memory (the backend's {@link Backend#allocateHost}) and from pageable memory (an ordinary
 * native allocation), and within the device. Each copy is timed alone between two events.
 */
final class CopyBenchmarks {
    /** The kinds of copy, as their benchmark names. */
    static final List<String> KINDS = List.of("copy-h2d-pinned", "copy-h2d-pageable", "copy-d2h-pinned",
            "copy-d2h-pageable", "copy-d2d");

    private final Bench bench;

    CopyBenchmarks(Bench bench) {
        this.bench = bench;
    }

    /** The sizes copied: 4 KiB, 16 KiB, ... up to {@code max}. */
    static List<Long> sizes(long max) {
        List<Long> sizes = new ArrayList<>();
        for (long s = CalibrationSettings.MIN_COPY_BYTES; s <= max; s *= 4) {
            sizes.add(s);
        }
        if (sizes.getLast() != max) {
            sizes.add(max);
        }
        return sizes;
    }

    /** Every kind at every size: bytes per copy. */
    void copies(DeviceBuffer source, DeviceBuffer destination, MemorySegment pinned, List<Measurement> rows) {
        Backend b = bench.backend;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment pageable = arena.allocate(bench.settings.maxCopyBytes(), 4096);
            for (String kind : KINDS) {
                MemorySegment host = kind.endsWith("pinned") ? pinned : pageable;
                for (long bytes : sizes(bench.settings.maxCopyBytes())) {
                    Runnable copy = switch (kind.substring(5, 8)) {
                        case "h2d" -> () -> b.copyHostToDevice(host, destination, bytes, bench.stream, Bench.LABEL);
                        case "d2h" -> () -> b.copyDeviceToHost(source, host, bytes, bench.stream, Bench.LABEL);
                        default -> () -> b.copyDeviceToDevice(source, destination, bytes, bench.stream, Bench.LABEL);
                    };
                    rows.add(new Measurement(kind, Long.toString(bytes), "bytes", bytes, bench.median(copy)));
                }
            }
            b.synchronizeAll();
        }
    }
}
