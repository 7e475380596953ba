package org.polygpu.emulator.ptx;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;
import org.polygpu.nvrtc.Nvrtc;
import org.polygpu.nvrtc.NvrtcLibrary;
import org.polygpu.nvrtc.NvrtcResult;

/** NVRTC for interpreter tests: compiles CUDA source to a {@link PtxModule}, skipping the test without NVRTC. */
final class CudaCompiler {
    private static Nvrtc nvrtc;

    private CudaCompiler() {
    }

    /** {@code source} compiled for virtual architecture {@code arch} (such as {@code compute_80}). */
    static PtxModule compile(String source, String arch) {
        return PtxModule.parse(ptx(source, arch));
    }

    static String ptx(String source, String arch) {
        return ptx(source, "test.cu", List.of("--gpu-architecture=" + arch), List.of());
    }

    static String ptx(String source, String name, List<String> options, List<String> nameExpressions) {
        return result(source, name, options, nameExpressions).ptx();
    }

    /** NVRTC's whole result (PTX and the lowered names of {@code nameExpressions}). */
    static synchronized NvrtcResult result(String source, String name, List<String> options,
            List<String> nameExpressions) {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        if (nvrtc == null) {
            nvrtc = Nvrtc.load(null);
        }
        return nvrtc.compile(source, name, options, nameExpressions);
    }

    /**
     * Corpus entry {@code entry} (see {@code corpus/corpus.properties}) compiled from its CUDA source with its own
     * options, for {@code arch} instead of the fixture's architecture.
     */
    static PtxModule corpus(String entry, String arch) {
        Properties p = new Properties();
        String dir = "/org/polygpu/emulator/corpus/";
        try (InputStream in = CudaCompiler.class.getResourceAsStream(dir + "corpus.properties")) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> options = new ArrayList<>();
        for (String o : p.getProperty(entry + ".options", "").split(" +")) {
            if (!o.isBlank() && !o.startsWith("--gpu-architecture")) {
                options.add(o);
            }
        }
        options.add("--gpu-architecture=" + arch);
        String names = p.getProperty(entry + ".nameExpressions", "");
        List<String> expressions = names.isBlank() ? List.of() : Arrays.stream(names.split(",")).map(String::strip)
                .toList();
        String file = p.getProperty(entry + ".file");
        return PtxModule.parse(ptx(TestDevice.fixture(dir + file), file, options, expressions));
    }
}
