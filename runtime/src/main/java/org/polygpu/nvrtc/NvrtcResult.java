package org.polygpu.nvrtc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one NVRTC compilation produced.
 *
 * @param ptx the PTX assembly of the program
 * @param cubin the device binary, or {@code null} when only a virtual architecture ({@code compute_XX}) was targeted
 * @param loweredNames each requested name expression (such as {@code inc_kernel<int>}) mapped to its mangled symbol,
 *     in the order the expressions were given
 * @param log the compiler's log (warnings); empty when it had nothing to say
 */
public record NvrtcResult(String ptx, byte[] cubin, Map<String, String> loweredNames, String log) {
    public NvrtcResult {
        Objects.requireNonNull(ptx, "ptx");
        Objects.requireNonNull(log, "log");
        cubin = cubin == null ? null : cubin.clone();
        loweredNames = Collections.unmodifiableMap(new LinkedHashMap<>(loweredNames));
    }

    /** The device binary (a copy), or {@code null} when only a virtual architecture was targeted. */
    @Override
    public byte[] cubin() {
        return cubin == null ? null : cubin.clone();
    }

    /** The mangled symbol of {@code nameExpression}; it must be one of the expressions given to the compilation. */
    public String loweredName(String nameExpression) {
        String lowered = loweredNames.get(nameExpression);
        if (lowered == null) {
            throw new IllegalArgumentException("'" + nameExpression + "' was not given as a name expression; given: "
                    + loweredNames.keySet());
        }
        return lowered;
    }
}
