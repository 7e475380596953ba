package org.polygpu.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.MemoryModel;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.cuda.CudaBackend;
import org.polygpu.cuda.CudaDetection;
import org.polygpu.cuda.CudaDriver;
import org.polygpu.config.MemoryModel;
import org.polygpu.nvrtc.Nvrtc;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * The cost of launching one kernel on a real GPU through polygpu, against a raw {@code cuLaunchKernel} loop on the
 * same kernel and stream (target: at most 2 µs more per launch). The kernel does nothing, so the host's cost per
 * launch is what is measured; each invocation issues {@value #BATCH} launches and then waits for them, so the
 * queue never fills and every variant pays the same synchronisation.
 *
 * <ul>
 *   <li>{@link #rawCuLaunchKernel}: {@code cuLaunchKernel} through the FFM façade with a prepared parameter array,
 *       the floor any Java binding can reach;</li>
 *   <li>{@link #backendLaunch}: {@code CudaBackend.launch} (argument packing and handle checks);</li>
 *   <li>{@link #contextLaunch}: {@code ExecutionContext.launch}, the full path a guest program takes (DAG, stream
 *       choice, coherence, events).</li>
 * </ul>
 *
 * <p>Without a usable GPU the set-up fails with the detection's reason and JMH reports it; the figures in
 * {@code benchmarks/README.md} say whether this was ever run. JMH needs benchmark and state classes public and not
 * final.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g"})
public class CudaLaunchBenchmark {
    /** Launches per invocation, waited for at its end. */
    static final int BATCH = 256;

    private static final String SOURCE = """
            extern "C" __global__ void noop(int *x, int n) {
                if (n < 0) x[0] = n;
            }
            """;

    private CudaDriver driver;
    private CudaBackend gpu;
    private StreamHandle stream;
    private FunctionHandle function;
    private DeviceBuffer buffer;
    private Object[] arguments;
    private LaunchConfig config;
    private Arena arena;
    private MemorySegment rawFunction;
    private MemorySegment rawStream;
    private MemorySegment rawParams;
    private ExecutionContext context;
    private Kernel kernel;
    private DeviceArray array;

    @Setup(Level.Trial)
    public void setUp() {
        CudaDetection.Result detected = CudaDetection.detect();
        if (!detected.usable()) {
            throw new IllegalStateException("CudaLaunchBenchmark needs a GPU and none is usable here: "
                    + detected.reason());
        }
        driver = CudaDriver.system();
        gpu = CudaBackend.open(driver, 1, MemoryModel.EXPLICIT, null);
        ModuleImage.CudaSource image = new ModuleImage.CudaSource(SOURCE, "noop.cu", List.of(), List.of());
        function = gpu.function(gpu.loadModule(0, image), "noop");
        stream = gpu.createStream(0);
        buffer = gpu.allocate(0, 4);
        arguments = new Object[] {buffer, 1};
        config = LaunchConfig.of(1, 32);
        setUpRaw();
        // One device: the matrix's values play no part in the launch path.
        context = ExecutionContext.create(gpu, RuntimeConfig.defaults(), BandwidthMatrixLoader.preset("h100x1"));
        kernel = context.kernel("noop", image, List.of(Parameter.pointer("x", ElementType.INT, Access.READ_WRITE),
                Parameter.scalar("n", ElementType.INT)));
        array = context.newArray(ElementType.INT, 1);
    }

    /** The same kernel compiled and loaded once more, called through the façade with a parameter array built once. */
    private void setUpRaw() {
        arena = Arena.ofConfined();
        driver.setCurrent(driver.retainPrimaryContext(driver.device(0)));
        DeviceProperties p = gpu.deviceProperties(0);
        String architecture = "sm_" + p.computeMajor() + p.computeMinor();
        byte[] cubin = Nvrtc.load(null).compile(SOURCE, "noop.cu", List.of("--gpu-architecture=" + architecture),
                List.of()).cubin();
        MemorySegment module = driver.modules().loadCubin(cubin, architecture);
        rawFunction = driver.modules().function(module, "noop");
        rawStream = driver.createStream(CudaDriver.STREAM_NON_BLOCKING);
        MemorySegment pointer = arena.allocate(ValueLayout.JAVA_LONG);
        pointer.set(ValueLayout.JAVA_LONG, 0, driver.allocate(4));
        MemorySegment n = arena.allocate(ValueLayout.JAVA_INT);
        n.set(ValueLayout.JAVA_INT, 0, 1);
        rawParams = arena.allocate(ValueLayout.ADDRESS, 2);
        rawParams.setAtIndex(ValueLayout.ADDRESS, 0, pointer);
        rawParams.setAtIndex(ValueLayout.ADDRESS, 1, n);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (context != null) {
            context.close();
        }
        if (gpu != null) {
            gpu.close();
        }
        if (arena != null) {
            arena.close();
            driver.releasePrimaryContext(driver.device(0));
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void rawCuLaunchKernel() {
        for (int i = 0; i < BATCH; i++) {
            driver.modules().launch(rawFunction, 1, 1, 1, 32, 1, 1, 0, rawStream, rawParams);
        }
        driver.synchronizeStream(rawStream);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void backendLaunch() {
        for (int i = 0; i < BATCH; i++) {
            gpu.launch(function, config, arguments, stream, OperationLabel.NONE);
        }
        gpu.synchronizeAll();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void contextLaunch() {
        for (int i = 0; i < BATCH; i++) {
            context.launch(kernel, config, array, 1);
        }
        context.synchronize();
    }
}
