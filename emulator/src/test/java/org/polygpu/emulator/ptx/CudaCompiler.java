package org.polygpu.emulator.ptx;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.polygpu.nvrtc.Nvrtc;
import org.polygpu.nvrtc.NvrtcLibrary;

/** NVRTC for interpreter tests: compiles CUDA source to a {@link PtxModule}, skipping the test without NVRTC. */
final class CudaCompiler {
    private static Nvrtc nvrtc;

    private CudaCompiler() {
    }

    /** {@code source} compiled for virtual architecture {@code arch} (such as {@code compute_80}). */
    static PtxModule compile(String source, String arch) {
        return PtxModule.parse(ptx(source, arch));
    }

    static synchronized String ptx(String source, String arch) {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        if (nvrtc == null) {
            nvrtc = Nvrtc.load(null);
        }
        return nvrtc.compile(source, "test.cu", List.of("--gpu-architecture=" + arch), List.of()).ptx();
    }
}
