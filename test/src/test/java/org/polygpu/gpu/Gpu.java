package org.polygpu.gpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.MemoryModel;
import org.polygpu.cuda.CudaBackend;
import org.polygpu.cuda.CudaDetection;
import org.polygpu.cuda.CudaDriver;
import org.polygpu.config.MemoryModel;
import org.polygpu.nvrtc.NvrtcLibrary;

/**
 * What the GPU tests share: skipping cleanly without a usable GPU (or without NVRTC), opening the CUDA backend, and
 * the kernel corpus of the PTX issue ({@code emulator/src/test/resources/org/polygpu/emulator/corpus}, or the folder
 * named by the system property {@code polygpu.corpus}, as {@code scripts/gpu-pack.sh} sets it).
 */
final class Gpu {
    static final OperationLabel LABEL = OperationLabel.NONE;
    private static final Path CORPUS = Path.of("emulator/src/test/resources/org/polygpu/emulator/corpus");

    private Gpu() {
    }

    /** Skips the calling test unless CUDA is usable here. */
    static void assumeGpu() {
        CudaDetection.Result r = CudaDetection.detect();
        Assumptions.assumeTrue(r.usable(), "no usable GPU: " + r.reason());
    }

    /** Skips the calling test unless CUDA is usable and {@code devices} GPUs exist. */
    static void assumeGpus(int devices) {
        assumeGpu();
        Assumptions.assumeTrue(CudaDriver.system().deviceCount() >= devices, "needs " + devices + " GPUs");
    }

    /** Skips the calling test unless NVRTC can be found. */
    static void assumeNvrtc() {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
    }

    /** The CUDA backend over the first {@code devices} GPUs, explicit memory. */
    static CudaBackend open(int devices) {
        assumeGpus(devices);
        return CudaBackend.open(CudaDriver.system(), devices, MemoryModel.EXPLICIT, null);
    }

    /** The CUDA source of corpus file {@code file}, to be compiled for each device by the backend. */
    static ModuleImage.CudaSource source(String file, String... nameExpressions) {
        return new ModuleImage.CudaSource(read(corpus().resolve(file)), file, List.of(), List.of(nameExpressions));
    }

    /** A committed PTX fixture of the corpus. */
    static ModuleImage.Ptx ptxFixture(String entry) {
        return new ModuleImage.Ptx(read(corpus().resolve("ptx").resolve(entry + ".ptx")));
    }

    static Path corpus() {
        String property = System.getProperty("polygpu.corpus");
        if (property != null) {
            return Path.of(property);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(CORPUS))) {
                return dir.resolve(CORPUS);
            }
        }
        throw new IllegalStateException("the kernel corpus " + CORPUS + " is not above " + Path.of("").toAbsolutePath()
                + "; set -Dpolygpu.corpus=DIR");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies {@code host} to a new device buffer of {@code device} and waits. */
    static DeviceBuffer upload(CudaBackend b, int device, MemorySegment host) {
        DeviceBuffer d = b.allocate(device, host.byteSize());
        StreamHandle s = b.createStream(device);
        MemorySegment pinned = b.allocateHost(host.byteSize());
        pinned.copyFrom(host);
        b.copyHostToDevice(pinned, d, host.byteSize(), s, LABEL);
        b.synchronizeAll();
        b.freeHost(pinned);
        b.destroyStream(s);
        return d;
    }

    /** Copies a device buffer back into a new heap segment (8-byte aligned) and waits. */
    static MemorySegment download(CudaBackend b, DeviceBuffer d) {
        StreamHandle s = b.createStream(d.device());
        MemorySegment pinned = b.allocateHost(d.bytes());
        b.copyDeviceToHost(d, pinned, d.bytes(), s, LABEL);
        b.synchronizeAll();
        // Backed by a long[] so that float, int and double views of it are aligned.
        MemorySegment result = MemorySegment.ofArray(new long[(int) ((d.bytes() + 7) / 8)]).asSlice(0, d.bytes());
        result.copyFrom(pinned);
        b.freeHost(pinned);
        b.destroyStream(s);
        return result;
    }
}
