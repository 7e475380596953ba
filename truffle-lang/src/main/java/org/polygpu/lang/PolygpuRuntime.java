package org.polygpu.lang;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.Backend;
import org.polygpu.backend.Backends;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.nvrtc.Nvrtc;
import org.polygpu.nvrtc.NvrtcResult;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.BandwidthMatrixLoader;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

/**
 * The language's gate to the runtime: each method makes one call to the {@link ExecutionContext} (or to the backend
 * or NVRTC) and turns whatever it throws into a {@link PolygpuException}. Guest objects call nothing else.
 *
 * <p>Thread-safety: the execution context serves one thread at a time, so every call holds this object's lock (a
 * polyglot context may be entered by several host threads). Owns the execution context and the backend; closed
 * with the language context.
 */
public final class PolygpuRuntime {
    /** The PTX target for backends that interpret PTX (the emulator): old enough for every feature it runs. */
    static final String PTX_ARCHITECTURE = "compute_70";

    private final ExecutionContext context;
    private final Backend backend;
    private final PolygpuOptions.Values options;
    private final String notice;
    private Nvrtc nvrtc;

    private PolygpuRuntime(ExecutionContext context, Backend backend, PolygpuOptions.Values options, String notice) {
        this.context = context;
        this.backend = backend;
        this.options = options;
        this.notice = notice;
    }

    /** Opens the backend the options name and an execution context over it. */
    @TruffleBoundary
    static PolygpuRuntime open(PolygpuOptions.Values options) {
        OpenedBackend opened;
        try {
            opened = Backends.open(options.text("Backend"), options.backendOptions());
        } catch (RuntimeException e) {
            throw PolygpuException.badOptions(e.getMessage());
        }
        try {
            String matrix = options.text("BandwidthMatrix");
            // Real backends apply BandwidthMatrix themselves; for the emulator it overrides the policies' view only.
            boolean override = !matrix.isEmpty() && opened.backend().name().equals("emulated");
            BandwidthMatrix bandwidth = override ? BandwidthMatrixLoader.resolve(matrix) : opened.bandwidth();
            ExecutionContext context = ExecutionContext.create(opened.backend(), options.runtimeConfig(), bandwidth);
            return new PolygpuRuntime(context, opened.backend(), options, opened.notice());
        } catch (RuntimeException e) {
            opened.backend().close();
            throw PolygpuException.badOptions(e.getMessage());
        }
    }

    /** What backend was chosen and why, one line. */
    public String notice() {
        return notice;
    }

    public PolygpuOptions.Values options() {
        return options;
    }

    /** The backend's name: {@code cuda} or {@code emulated}. */
    public String backendName() {
        return backend.name();
    }

    @TruffleBoundary
    public synchronized DeviceArray newArray(ElementType type, long... shape) {
        try {
            return context.newArray(type, shape);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    @TruffleBoundary
    public synchronized Object read(DeviceArray array, long index) {
        try {
            return context.read(array, index);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    @TruffleBoundary
    public synchronized void write(DeviceArray array, long index, Object value) {
        try {
            context.write(array, index, value);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    /** Reads {@code dst.byteSize()} bytes of {@code array} from {@code byteOffset}. */
    @TruffleBoundary
    public synchronized void copyToHost(DeviceArray array, long byteOffset, MemorySegment dst) {
        try {
            context.copyToHost(array, byteOffset, dst);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    /** Writes all of {@code src} into {@code array} from {@code byteOffset}. */
    @TruffleBoundary
    public synchronized void copyFromHost(DeviceArray array, long byteOffset, MemorySegment src) {
        try {
            context.copyFromHost(array, byteOffset, src);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    /** Copies all of {@code src} into {@code dst} on a device. */
    @TruffleBoundary
    public synchronized void copy(DeviceArray src, DeviceArray dst) {
        try {
            context.copy(src, dst);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    @TruffleBoundary
    public synchronized void free(DeviceArray array) {
        try {
            context.free(array);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    @TruffleBoundary
    public synchronized Kernel kernel(String name, ModuleImage image, List<Parameter> parameters) {
        try {
            return context.kernel(name, image, parameters);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    /** Launches {@code kernel}; returns the scheduled computation (its device and stream are already chosen). */
    @TruffleBoundary
    public synchronized Computation launch(Kernel kernel, LaunchConfig config, Object[] arguments) {
        try {
            return context.launch(kernel, config, arguments);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    @TruffleBoundary
    public synchronized void synchronize() {
        try {
            context.synchronize();
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    /** Devices in use (at most {@code NumberOfGPUs}). */
    public int deviceCount() {
        return context.deviceCount();
    }

    @TruffleBoundary
    public synchronized DeviceProperties deviceProperties(int device) {
        try {
            return backend.deviceProperties(device);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    @TruffleBoundary
    public synchronized long freeMemory(int device) {
        try {
            return backend.freeMemory(device);
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    /**
     * Compiles CUDA C++ for this backend: on real GPUs the backend compiles the source itself for each device's
     * architecture (a CUBIN, found by its name expression); elsewhere NVRTC compiles it to PTX here and
     * {@code nameExpression} (such as {@code inc_kernel<int>}) is resolved to its lowered name.
     */
    @TruffleBoundary
    public CompiledKernel compile(String source, String nameExpression) {
        if (backend.name().equals("cuda")) {
            ModuleImage image = new ModuleImage.CudaSource(source, programName(nameExpression), List.of(),
                    List.of(nameExpression));
            return new CompiledKernel(nameExpression, image, null);
        }
        return compilePtx(source, nameExpression);
    }

    /** Compiles CUDA C++ to PTX with NVRTC. */
    @TruffleBoundary
    public synchronized CompiledKernel compilePtx(String source, String nameExpression) {
        try {
            if (nvrtc == null) {
                nvrtc = Nvrtc.load(options.text("NvrtcLibrary").isEmpty() ? null : options.text("NvrtcLibrary"));
            }
            NvrtcResult r = nvrtc.compile(source, programName(nameExpression),
                    List.of("--gpu-architecture=" + PTX_ARCHITECTURE), List.of(nameExpression));
            return new CompiledKernel(r.loweredName(nameExpression), new ModuleImage.Ptx(r.ptx()), r.ptx());
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        }
    }

    private static String programName(String nameExpression) {
        return nameExpression.replaceAll("[^A-Za-z0-9_]", "_") + ".cu";
    }

    /** Writes the exports the options ask for, then releases every array, stream and the backend. */
    @TruffleBoundary
    synchronized void close() {
        try {
            if (!options.text("ExportDAG").isEmpty()) {
                context.exportDag(Path.of(options.text("ExportDAG") + ".dot"));
            }
            if (!options.text("ExportTrace").isEmpty()) {
                context.exportTrace(Path.of(options.text("ExportTrace")));
            }
        } catch (RuntimeException e) {
            throw PolygpuException.fromRuntime(e);
        } finally {
            try {
                context.close();
            } finally {
                backend.close();
            }
        }
    }

    /**
     * A kernel compiled by NVRTC.
     *
     * @param loweredName the symbol in the module
     * @param image       what the backend loads
     * @param ptx         the PTX text, or null when the backend compiles the source itself
     */
    public record CompiledKernel(String loweredName, ModuleImage image, String ptx) {
    }
}
