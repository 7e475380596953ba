package org.polygpu.emulator.calibration;

import java.util.List;
import org.polygpu.calibration.Measurement;
import org.polygpu.calibration.Measurements;
import org.polygpu.emulator.CopyLineFit;
import org.polygpu.emulator.timing.CopySpec;
import org.polygpu.emulator.timing.LinkSpec;

/**
 * The fits of the copies: for each kind, {@link CopyLineFit}'s line {@code time = latency + bytes / bandwidth}
 * (with a second rate beyond a knee, for pageable host memory larger than the host's cache) through the copies of at
 * least {@value #MIN_FIT_BYTES} bytes (smaller ones are dominated by fixed costs that do not add up linearly).
 */
final class CopyFits {
    /** The smallest copy the lines are fitted through. */
    static final long MIN_FIT_BYTES = 64 * 1024;

    private CopyFits() {
    }

    static CopySpec fit(Measurements m) {
        return new CopySpec(link(m, "copy-h2d-pinned"), link(m, "copy-h2d-pageable"), link(m, "copy-d2h-pinned"),
                link(m, "copy-d2h-pageable"), link(m, "copy-d2d"));
    }

    static LinkSpec link(Measurements m, String kind) {
        List<Measurement> rows = m.of(kind).stream().filter(x -> x.work() >= MIN_FIT_BYTES).toList();
        if (rows.size() < 2) {
            throw new IllegalArgumentException("the measurements need " + kind + " at two sizes of at least "
                    + MIN_FIT_BYTES + " bytes, got " + rows.size());
        }
        return CopyLineFit.fit(rows.stream().mapToDouble(Measurement::work).toArray(),
                rows.stream().mapToDouble(Measurement::nanos).toArray());
    }
}
