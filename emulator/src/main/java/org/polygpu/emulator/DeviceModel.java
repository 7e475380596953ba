package org.polygpu.emulator;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.config.UserFiles;
import org.polygpu.emulator.timing.AtomicSpec;
import org.polygpu.emulator.timing.ComputeSpec;
import org.polygpu.emulator.timing.CopySpec;
import org.polygpu.emulator.timing.KernelProfile;
import org.polygpu.emulator.timing.KernelTiming;
import org.polygpu.emulator.timing.LaunchSpec;
import org.polygpu.emulator.timing.MemorySpec;
import org.polygpu.emulator.timing.SmSpec;

/**
 * One emulated GPU as physical parameters: what {@link EmulatedBackend#deviceProperties} reports and what the timing
 * model ({@link KernelTiming}, the copies, the sharing of a device between kernels) computes durations from. A model
 * is data: the presets {@link #V100}, {@link #A100} and {@link #H100} are device-model files among the emulator's
 * resources, and {@link DeviceModelFile} reads and writes such files (the format is in {@code docs/emulator-model.md}).
 *
 * @param name          device name as reported, e.g. {@code NVIDIA H100 80GB HBM3 (emulated)}
 * @param source        where the figures come from (datasheets, measurements and how they were fitted)
 * @param origin        where this model was loaded from ({@code preset h100}, {@code file models/x.json}); not
 *                      written to files
 * @param computeMajor  compute capability, major part
 * @param computeMinor  compute capability, minor part
 * @param totalMemory   bytes of device memory; allocations are checked against it, but only the bytes requested
 *                      are really allocated
 * @param sm            the SMs and their limits
 * @param memory        the memory system
 * @param compute       the SMs' instruction throughputs
 * @param atomics       global atomics
 * @param launch        the cost of a launch and of an enqueue call
 * @param copies        copies over the host link and within the device
 */
public record DeviceModel(String name, String source, String origin, int computeMajor, int computeMinor,
                          long totalMemory, SmSpec sm, MemorySpec memory, ComputeSpec compute, AtomicSpec atomics,
                          LaunchSpec launch, CopySpec copies) {
    /** Tesla V100 SXM2 16 GB, from published specifications ({@code v100.json}). */
    public static final DeviceModel V100 = DeviceModelFile.resource("v100");

    /** A100 SXM4 40 GB, from published specifications ({@code a100.json}). */
    public static final DeviceModel A100 = DeviceModelFile.resource("a100");

    /** H100 SXM5 80 GB HBM3, fitted to measurements of one such GPU ({@code h100.json}). */
    public static final DeviceModel H100 = DeviceModelFile.resource("h100");

    private static final List<String> PRESET_NAMES = List.of("V100", "A100", "H100");

    public DeviceModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(sm, "sm");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(compute, "compute");
        Objects.requireNonNull(atomics, "atomics");
        Objects.requireNonNull(launch, "launch");
        Objects.requireNonNull(copies, "copies");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a device model needs a name");
        }
        if (computeMajor < 1 || computeMinor < 0) {
            throw new IllegalArgumentException("invalid compute capability " + computeMajor + "." + computeMinor);
        }
        if (totalMemory <= 0) {
            throw new IllegalArgumentException("totalMemory must be positive, got " + totalMemory);
        }
    }

    /**
     * The virtual architecture CUDA source is compiled to PTX for on this model, its own compute capability
     * ({@code compute_70} for the V100, {@code compute_80} for the A100, {@code compute_90} for the H100), so that
     * intrinsics of later architectures ({@code __reduce_add_sync} from 8.0) compile where the modeled GPU has them
     * and fail with NVRTC's message where it does not.
     */
    public String ptxArchitecture() {
        return "compute_" + computeMajor + computeMinor;
    }

    /** The names {@link #preset} accepts, in a fixed order. */
    public static List<String> presetNames() {
        return PRESET_NAMES;
    }

    /**
     * The preset called {@code name}, ignoring case.
     *
     * @throws IllegalArgumentException listing the valid names when there is no such preset
     */
    public static DeviceModel preset(String name) {
        Objects.requireNonNull(name, "name");
        return switch (name.strip().toUpperCase(Locale.ROOT)) {
            case "V100" -> V100;
            case "A100" -> A100;
            case "H100" -> H100;
            default -> throw new IllegalArgumentException("unknown device model '" + name + "': valid models are "
                    + String.join(", ", PRESET_NAMES) + " or the path of a device-model file (.json)");
        };
    }

    /**
     * The model an {@code EmulatedDeviceModel} value names: a preset ({@link #preset}, ignoring case) or the path of
     * a device-model file ({@link DeviceModelFile#read}).
     *
     * @throws IllegalArgumentException naming the value, the valid presets, or what is wrong with the file
     */
    public static DeviceModel resolve(String value) {
        Objects.requireNonNull(value, "value");
        if (PRESET_NAMES.contains(value.strip().toUpperCase(Locale.ROOT))) {
            return preset(value);
        }
        Path file = Path.of(value.strip());
        if (Files.notExists(file, LinkOption.NOFOLLOW_LINKS) && !value.contains("/") && !value.endsWith(".json")) {
            throw new IllegalArgumentException("unknown device model '" + value + "': valid models are "
                    + String.join(", ", PRESET_NAMES) + " or the path of a device-model file (.json)");
        }
        // Anything else names a file: UserFiles says what is wrong with it (missing, a directory, a FIFO, binary).
        String text = UserFiles.readText("EmulatedDeviceModel", file);
        return DeviceModelFile.parse(text, file.toString(), "file " + file);
    }

    /** This model with a different memory size, e.g. to study a workload that does not fit. */
    public DeviceModel withTotalMemory(long bytes) {
        return new DeviceModel(name, source, origin, computeMajor, computeMinor, bytes, sm, memory, compute, atomics,
                launch, copies);
    }

    /** This model saying it was loaded from {@code where}. */
    public DeviceModel withOrigin(String where) {
        return new DeviceModel(name, source, where, computeMajor, computeMinor, totalMemory, sm, memory, compute,
                atomics, launch, copies);
    }

    /**
     * Where the model comes from, for {@code info}: its origin and the first part of its source (up to the first
     * semicolon), e.g. {@code preset h100, fitted to one NVIDIA H100 80GB HBM3 measured on 2026-11-27 ...}.
     */
    public String describe() {
        int end = source.indexOf(';');
        return origin + ", " + (end < 0 ? source : source.substring(0, end));
    }

    /** Number of SMs. */
    public int multiprocessors() {
        return sm.count();
    }

    /** SM clock in kHz, as CUDA reports it. */
    public int clockKhz() {
        return (int) Math.round(sm.clockMhz() * 1000);
    }

    /** Threads in one block at most. */
    public int maxThreadsPerBlock() {
        return sm.maxThreadsPerBlock();
    }

    /** Shared memory bytes per block at most. */
    public int maxSharedMemoryPerBlock() {
        return sm.maxSharedMemoryPerBlock();
    }

    /** Threads per warp. */
    public int warpSize() {
        return sm.warpSize();
    }

    /** Peak FP32 rate in GFLOP/s: every SM completing {@code fp32PerClock} fused multiply-add warp instructions. */
    public double peakGflops() {
        return sm.count() * sm.cyclesPerNano() * compute.fp32PerClock() * sm.warpSize() * 2;
    }

    /** The properties the backend reports for a device of this model. */
    public DeviceProperties properties() {
        return new DeviceProperties(name, computeMajor, computeMinor, totalMemory, sm.count(), clockKhz(),
                sm.maxThreadsPerBlock(), sm.maxSharedMemoryPerBlock(), sm.warpSize());
    }

    /**
     * Roofline execution time of {@code work} in nanoseconds, launch latency excluded: the larger of the compute
     * time at the peak rate and the memory time at full bandwidth, rounded up to a whole nanosecond. For Java
     * kernels, whose work is declared rather than counted.
     */
    public long rooflineNanos(KernelWork work) {
        return VirtualTime.ceilNanos(Math.max(work.flops() / peakGflops(), work.bytes() / memory.dramGBps()));
    }

    /** The kernel timing model of this device ({@link KernelTiming}). */
    public KernelTiming timing() {
        return new KernelTiming(sm, memory, compute, atomics);
    }

    /**
     * Execution time in nanoseconds of a PTX launch described by {@code profile}, launch cost excluded
     * ({@link KernelTiming#nanos}), rounded up to a whole nanosecond.
     */
    public long kernelNanos(KernelProfile profile) {
        return VirtualTime.ceilNanos(timing().nanos(profile));
    }
}
