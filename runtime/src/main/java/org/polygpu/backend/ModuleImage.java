package org.polygpu.backend;

import java.util.List;
import java.util.Objects;

/**
 * Code a backend can load as a module: PTX text, a CUBIN, or a backend's own form (the emulator's Java kernels).
 * A backend rejects images it cannot load with a {@link BackendException}.
 */
public interface ModuleImage {
    /** What the image is, for error messages. */
    String description();

    /** PTX assembly as NVRTC emits it. */
    record Ptx(String text) implements ModuleImage {
        @Override
        public String description() {
            return "PTX (" + text.length() + " chars)";
        }
    }

    /** A CUBIN for one GPU architecture. */
    record Cubin(byte[] image, String architecture) implements ModuleImage {
        @Override
        public String description() {
            return "CUBIN for " + architecture + " (" + image.length + " bytes)";
        }
    }

    /**
     * CUDA C++ source that the backend compiles for each device itself: the CUDA backend with NVRTC to a CUBIN for
     * the device's architecture ({@code sm_XY}), falling back to PTX when NVRTC does not know that architecture.
     *
     * @param source          the CUDA C++ source
     * @param programName     the name NVRTC gives the source in diagnostics
     * @param options         NVRTC options other than the architecture, such as {@code --use_fast_math}
     * @param nameExpressions C++ names to instantiate and look up, such as {@code inc_kernel<int>}; the backend's
     *                        {@link Backend#function} accepts them as kernel names
     */
    record CudaSource(String source, String programName, List<String> options, List<String> nameExpressions)
            implements ModuleImage {
        public CudaSource {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(programName, "programName");
            options = List.copyOf(options);
            nameExpressions = List.copyOf(nameExpressions);
        }

        @Override
        public String description() {
            return "CUDA source " + programName + " (" + source.length() + " chars)";
        }
    }
}
