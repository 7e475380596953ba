package org.polygpu.emulator;

import java.io.PrintStream;
import java.util.Objects;
import org.polygpu.config.EmulatedExecution;
import org.polygpu.config.MemoryModel;
import org.polygpu.nvrtc.KernelCache;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.ClusterTopology;

/**
 * Configures an {@link EmulatedBackend}. Only the topology is required; the defaults are:
 * <ul>
 *   <li>devices: every GPU of the topology (fewer restrict the matrix to the first ones);</li>
 *   <li>model: {@link DeviceModel#V100};</li>
 *   <li>copy latency: the model's, per kind of copy ({@link DeviceModel#copies}; 2 000 ns for the V100);</li>
 *   <li>launch latency: the model's ({@link DeviceModel#launch}; 4 000 ns for the V100);</li>
 *   <li>host API cost per enqueue call (copy, launch, record, wait): the model's (1 500 ns for the V100);</li>
 *   <li>poll cost: 100 ns per {@link EmulatedBackend#queryEvent}, so that a polling host makes progress;</li>
 *   <li>max pending per stream: 1024 incomplete operations, CUDA's launch queue depth;</li>
 *   <li>parallelism: the available processors, threads running the CTAs of one PTX launch;</li>
 *   <li>instruction budget: 10^10 thread-instructions per PTX launch, after which it is stopped as runaway;</li>
 *   <li>NVRTC library: searched in the usual places when CUDA source is first loaded;</li>
 *   <li>device output: {@code System.out}, where a kernel's {@code printf} output appears when it completes;</li>
 *   <li>execution: {@link EmulatedExecution#FULL}, every thread block of every PTX launch; in
 *       {@link EmulatedExecution#SAMPLED}, {@value #DEFAULT_SAMPLED_BLOCKS} blocks of each larger grid;</li>
 *   <li>memory model: {@link MemoryModel#EXPLICIT}, each device's buffers its own; {@link MemoryModel#MANAGED} adds
 *       managed memory ({@link EmulatedBackend#allocateManaged}) with page-granular residency;</li>
 *   <li>page fault cost: 20 000 ns per managed page a kernel touches away from its device, besides the page's
 *       transfer: the low end of the 20–50 µs that servicing one GPU far-fault takes (Zheng et al., "Towards High
 *       Performance Paged Memory for GPUs", HPCA 2016).</li>
 * </ul>
 */
public final class EmulatedBackendBuilder {
    /**
     * Thread blocks a sampled launch interprets: enough that equal blocks (the benchmarks' grid-stride loops) give
     * counters within rounding of the whole grid's, few enough that a 64-block grid runs 8 times faster.
     */
    static final int DEFAULT_SAMPLED_BLOCKS = 8;

    private int devices;
    private BandwidthMatrix topology;
    private DeviceModel model = DeviceModel.V100;
    /** Set explicitly, else -1: the model's. */
    private long copyLatencyNanos = -1;
    private long launchLatencyNanos = -1;
    private long hostApiNanos = -1;
    private long pollNanos = 100;
    private int maxPendingPerStream = 1024;
    private int parallelism = Runtime.getRuntime().availableProcessors();
    private long instructionBudget = 10_000_000_000L;
    private String nvrtcLibrary;
    private KernelCache kernelCache = KernelCache.disabled();
    private PrintStream deviceOutput = System.out;
    private EmulatedExecution execution = EmulatedExecution.FULL;
    private int sampledBlocks = DEFAULT_SAMPLED_BLOCKS;
    private MemoryModel memoryModel = MemoryModel.EXPLICIT;
    private long pageFaultNanos = 20_000;
    private ClusterTopology cluster;

    EmulatedBackendBuilder() {
    }

    /** Number of virtual GPUs, at most the topology's GPU count (the first ones of a cluster). */
    public EmulatedBackendBuilder devices(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("an emulated backend needs at least one device, got " + n);
        }
        this.devices = n;
        return this;
    }

    /** The interconnect, GB/s, GPUs first and the host last. */
    public EmulatedBackendBuilder topology(BandwidthMatrix matrix) {
        this.topology = Objects.requireNonNull(matrix, "matrix");
        return this;
    }

    /**
     * The cluster the topology describes ({@link ClusterTopology#linkMatrix()}), so that transfers between its nodes
     * share their NICs and pay the network's latency; without one, every pair of devices has a link of its own.
     */
    public EmulatedBackendBuilder cluster(ClusterTopology clusterTopology) {
        this.cluster = Objects.requireNonNull(clusterTopology, "clusterTopology");
        return this;
    }

    /** The model of every device. */
    public EmulatedBackendBuilder model(DeviceModel deviceModel) {
        this.model = Objects.requireNonNull(deviceModel, "deviceModel");
        return this;
    }

    /** Fixed cost of every copy, added to its transfer time, instead of the model's per kind of copy. */
    public EmulatedBackendBuilder copyLatencyNanos(long nanos) {
        this.copyLatencyNanos = nonNegative("copyLatencyNanos", nanos);
        return this;
    }

    /** Fixed cost of every kernel on the device, added to its execution time, instead of the model's. */
    public EmulatedBackendBuilder launchLatencyNanos(long nanos) {
        this.launchLatencyNanos = nonNegative("launchLatencyNanos", nanos);
        return this;
    }

    /** Host time every enqueue call costs, instead of the model's. */
    public EmulatedBackendBuilder hostApiNanos(long nanos) {
        this.hostApiNanos = nonNegative("hostApiNanos", nanos);
        return this;
    }

    /** Host time every event query costs; at least 1 so that polling advances time. */
    public EmulatedBackendBuilder pollNanos(long nanos) {
        if (nanos < 1) {
            throw new IllegalArgumentException("pollNanos must be at least 1, got " + nanos);
        }
        this.pollNanos = nanos;
        return this;
    }

    /** Incomplete operations a stream holds before an enqueue blocks the host. */
    public EmulatedBackendBuilder maxPendingPerStream(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("maxPendingPerStream must be at least 1, got " + n);
        }
        this.maxPendingPerStream = n;
        return this;
    }

    /** Threads that run the CTAs of one PTX launch in parallel; 1 runs them in order on the calling thread. */
    public EmulatedBackendBuilder parallelism(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + threads);
        }
        this.parallelism = threads;
        return this;
    }

    /**
     * Thread-instructions one PTX launch may execute; a launch that exceeds them is stopped with an error naming the
     * kernel and where it was, so that a kernel that never terminates cannot hang the program.
     */
    public EmulatedBackendBuilder instructionBudget(long threadInstructions) {
        if (threadInstructions < 1) {
            throw new IllegalArgumentException("instructionBudget must be positive, got " + threadInstructions);
        }
        this.instructionBudget = threadInstructions;
        return this;
    }

    /**
     * The NVRTC library that compiles CUDA source to PTX ({@code NvrtcLibrary} option: the library or a directory
     * holding it); {@code null}, the default, searches the usual places. Nothing is loaded until source is.
     */
    public EmulatedBackendBuilder nvrtcLibrary(String pathOrNull) {
        this.nvrtcLibrary = pathOrNull;
        return this;
    }

    /** Where compiled CUDA source is kept across runs; disabled by default. */
    public EmulatedBackendBuilder kernelCache(KernelCache cache) {
        this.kernelCache = Objects.requireNonNull(cache, "cache");
        return this;
    }

    /**
     * Where what kernels print ({@code printf}) goes: each kernel's output, in block order, is written when the kernel
     * completes, as CUDA flushes its printf buffer at synchronisation.
     */
    public EmulatedBackendBuilder deviceOutput(PrintStream stream) {
        this.deviceOutput = Objects.requireNonNull(stream, "stream");
        return this;
    }

    /**
     * Whether PTX launches interpret every thread block ({@code full}) or a sample ({@code sampled}): then a grid of
     * more than {@link #sampledBlocks} blocks runs that many, spread evenly over it (the middle block of each of as
     * many equal stretches), and is timed by its counters scaled to the whole grid; the buffers it was passed hold
     * data that was not computed, and copying them to the host fails.
     */
    public EmulatedBackendBuilder execution(EmulatedExecution mode) {
        this.execution = Objects.requireNonNull(mode, "mode");
        return this;
    }

    /** {@code MemoryModel}: whether arrays may be managed memory that every device addresses. */
    public EmulatedBackendBuilder memoryModel(MemoryModel model) {
        this.memoryModel = Objects.requireNonNull(model, "model");
        return this;
    }

    /** The latency of servicing one faulting page of managed memory, besides its transfer. */
    public EmulatedBackendBuilder pageFaultNanos(long nanos) {
        this.pageFaultNanos = nonNegative("pageFaultNanos", nanos);
        return this;
    }

    /** Thread blocks a launch interprets in sampled execution, at least 1. */
    public EmulatedBackendBuilder sampledBlocks(int blocks) {
        if (blocks < 1) {
            throw new IllegalArgumentException("sampledBlocks must be at least 1, got " + blocks);
        }
        this.sampledBlocks = blocks;
        return this;
    }

    /**
     * @throws IllegalStateException    if no topology was given
     * @throws IllegalArgumentException if more devices were asked for than the topology describes
     */
    public EmulatedBackend build() {
        if (topology == null) {
            throw new IllegalStateException("an emulated backend needs a topology (a BandwidthMatrix)");
        }
        if (devices > topology.gpuCount()) {
            throw new IllegalArgumentException("the topology describes " + topology.gpuCount()
                    + " GPUs; cannot emulate " + devices);
        }
        if (cluster != null && topology.gpuCount() != cluster.gpuCount()) {
            throw new IllegalArgumentException("the topology describes " + topology.gpuCount() + " GPUs but cluster "
                    + cluster.name() + " has " + cluster.gpuCount());
        }
        return new EmulatedBackend(this);
    }

    /** The cluster the topology describes, or {@code null}. */
    ClusterTopology cluster() {
        return cluster;
    }

    BandwidthMatrix topology() {
        return devices == 0 || devices == topology.gpuCount() ? topology : topology.restrictedTo(devices);
    }

    DeviceModel model() {
        return model;
    }

    /** The copy latency set explicitly, or -1 when each copy takes its model's ({@link DeviceModel#copies}). */
    long copyLatencyNanos() {
        return copyLatencyNanos;
    }

    long launchLatencyNanos() {
        return launchLatencyNanos >= 0 ? launchLatencyNanos : Math.round(model.launch().deviceNs());
    }

    long hostApiNanos() {
        return hostApiNanos >= 0 ? hostApiNanos : Math.round(model.launch().hostNs());
    }

    long pollNanos() {
        return pollNanos;
    }

    int maxPendingPerStream() {
        return maxPendingPerStream;
    }

    int parallelism() {
        return parallelism;
    }

    long instructionBudget() {
        return instructionBudget;
    }

    String nvrtcLibrary() {
        return nvrtcLibrary;
    }

    KernelCache kernelCache() {
        return kernelCache;
    }

    PrintStream deviceOutput() {
        return deviceOutput;
    }

    MemoryModel memoryModel() {
        return memoryModel;
    }

    long pageFaultNanos() {
        return pageFaultNanos;
    }

    /** Blocks each launch interprets at most: all in full execution. */
    long sampledBlocks() {
        return execution == EmulatedExecution.FULL ? Long.MAX_VALUE : sampledBlocks;
    }

    private static long nonNegative(String what, long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException(what + " must be non-negative, got " + nanos);
        }
        return nanos;
    }
}
