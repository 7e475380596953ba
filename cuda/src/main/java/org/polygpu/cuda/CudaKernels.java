package org.polygpu.cuda;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

/**
 * The CUDA backend's kernels: loading module images on a device, finding their functions and launching them.
 *
 * <p>{@link ModuleImage.Ptx} is JIT-compiled by the driver, {@link ModuleImage.Cubin} is loaded as is, and
 * {@link ModuleImage.CudaSource} is compiled by NVRTC for the device's architecture ({@link CudaSourceCompiler}),
 * whose name expressions then name functions alongside C and mangled names. A launch packs its arguments
 * ({@link LaunchParameterBuffer}) and is bracketed on the {@link CudaTimeline}. Loaded modules are in the
 * {@link CudaRegistry}; the argument block is native memory freed by {@link #close()}. Not thread-safe (the
 * backend's single caller); the backend checks that it is open.
 */
final class CudaKernels {
    private final CudaBackend owner;
    private final CudaDriver driver;
    private final CudaDevices devices;
    private final CudaRegistry registry;
    private final CudaTimeline timeline;
    private final CudaSourceCompiler compiler;
    private final LaunchParameterBuffer arguments = new LaunchParameterBuffer();

    /** @param compiler what compiles CUDA source for the devices */
    CudaKernels(CudaBackend owner, CudaDriver driver, CudaDevices devices, CudaRegistry registry,
                CudaTimeline timeline, CudaSourceCompiler compiler) {
        this.owner = owner;
        this.driver = driver;
        this.devices = devices;
        this.registry = registry;
        this.timeline = timeline;
        this.compiler = compiler;
    }

    /** Whether {@link #loadModule} takes this kind of image: PTX, CUBIN or CUDA source. */
    static boolean accepts(ModuleImage image) {
        return image instanceof ModuleImage.Ptx || image instanceof ModuleImage.Cubin
                || image instanceof ModuleImage.CudaSource;
    }

    ModuleHandle loadModule(int device, ModuleImage image) {
        devices.check(device);
        devices.current(device);
        CudaModules m = driver.modules();
        DeviceProperties p = devices.properties(device);
        CudaHandles.Module module = switch (Objects.requireNonNull(image, "image")) {
            case ModuleImage.Ptx ptx -> new CudaHandles.Module(owner, device, m.loadPtx(ptx.text()), Map.of(),
                    ptx.text(), null);
            case ModuleImage.Cubin c -> new CudaHandles.Module(owner, device,
                    m.loadCubin(c.image(), c.architecture()), Map.of(), null, null);
            case ModuleImage.CudaSource source -> {
                CudaSourceCompiler.Compiled compiled = compiler.compile(source, p.computeMajor(), p.computeMinor());
                yield switch (compiled.image()) {
                    case ModuleImage.Cubin c -> new CudaHandles.Module(owner, device,
                            m.loadCubin(c.image(), c.architecture()), compiled.loweredNames(), null, source);
                    case ModuleImage.Ptx ptx -> new CudaHandles.Module(owner, device, m.loadPtx(ptx.text()),
                            compiled.loweredNames(), ptx.text(), null);
                    default -> throw new AssertionError("NVRTC gave " + compiled.image().description());
                };
            }
            default -> throw new BackendException("cannot load " + image.description() + " on the CUDA backend: it "
                    + "loads PTX, CUBIN and CUDA source images");
        };
        registry.add(module);
        return module;
    }

    /**
     * The PTX a module was loaded from or fell back to; for a CUBIN compiled from source, its PTX for the device's
     * virtual architecture, compiled now; empty for a CUBIN loaded as is.
     */
    Optional<String> ptx(ModuleHandle module) {
        CudaHandles.Module m = registry.module(module);
        if (m.ptx != null || m.source == null) {
            return Optional.ofNullable(m.ptx);
        }
        DeviceProperties p = devices.properties(m.device);
        return Optional.of(compiler.ptx(m.source, p.computeMajor(), p.computeMinor()));
    }

    /** Finds {@code name}: a C kernel name, a mangled name, or a name expression the module was compiled with. */
    FunctionHandle function(ModuleHandle module, String name) {
        CudaHandles.Module m = registry.module(module);
        devices.current(m.device);
        String symbol = m.loweredNames.getOrDefault(name, name);
        return new CudaHandles.Function(m, name, driver.modules().function(m.handle, symbol));
    }

    /** Writes a module's variable on the module's device, synchronously. */
    void writeSymbol(ModuleHandle module, String symbol, long offset, MemorySegment src) {
        CudaHandles.Module m = registry.module(module);
        devices.current(m.device);
        driver.modules().writeGlobal(m.handle, symbol, offset, src);
    }

    void launch(FunctionHandle function, LaunchConfig config, Object[] args, StreamHandle stream,
                OperationLabel label) {
        if (!(function instanceof CudaHandles.Function f) || f.module.owner != owner || f.module.unloaded) {
            throw new BackendException("not a kernel of this CUDA backend: " + function);
        }
        CudaHandles.Stream s = registry.stream(stream);
        if (f.device() != s.device) {
            throw new BackendException(f + " cannot be launched on " + s + ": load its module on that device");
        }
        MemorySegment params = arguments.pack(f.name, args, s.device, registry);
        devices.current(s.device);
        MemorySegment start = timeline.begin(s.device, s.handle);
        driver.modules().launch(f.handle, config.grid().x(), config.grid().y(), config.grid().z(),
                config.block().x(), config.block().y(), config.block().z(), config.sharedMemoryBytes(), s.handle,
                params);
        timeline.end(start, s.device, s.id, s.handle, TimedOperation.Kind.KERNEL, label, 0, s.device);
    }

    /** Frees the argument block; the modules are unloaded by the registry. */
    void close() {
        arguments.close();
    }
}
