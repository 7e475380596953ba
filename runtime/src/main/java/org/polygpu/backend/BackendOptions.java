package org.polygpu.backend;

import java.nio.file.Path;
import java.util.Optional;

import org.polygpu.config.EmulatedExecution;
import org.polygpu.config.MemoryModel;
import org.polygpu.nvrtc.KernelCache;

/**
 * The options backend providers read, parsed and checked once by whoever starts polygpu (the language, a command):
 * providers never parse option text. A provider reads the fields that concern it and ignores the rest.
 *
 * @param numberOfGpus        {@code NumberOfGPUs}: devices to use, 0 for all present; more than are present is an
 *                            error naming how many there are
 * @param memoryModel         {@code MemoryModel} (real GPUs)
 * @param bandwidthMatrix     {@code BandwidthMatrix}: a CSV path or preset name, if configured
 * @param nvrtcLibrary        {@code NvrtcLibrary}: the NVRTC library to load, if not searched
 * @param emulatedDevices     {@code EmulatedDevices}: emulated GPUs, 0 for the emulator's default
 * @param emulatedTopology    {@code EmulatedTopology}: preset name or CSV path, if not the default
 * @param emulatedDeviceModel {@code EmulatedDeviceModel}: the emulated GPU model's name, if not the default
 * @param emulatedDeviceMemory {@code EmulatedDeviceMemory}: bytes of memory of every emulated device, 0 for the
 *                            model's own
 * @param emulatedExecution   {@code EmulatedExecution}: whether the emulator interprets every thread block or a
 *                            sample of them
 * @param kernelCache         {@code KernelCache} and {@code KernelCacheDirectory}: the directory of the compiled-kernel
 *                            cache ({@link org.polygpu.nvrtc.KernelCache}), empty when it is disabled
 */
public record BackendOptions(int numberOfGpus, MemoryModel memoryModel, Optional<String> bandwidthMatrix,
                             Optional<Path> nvrtcLibrary, int emulatedDevices, Optional<String> emulatedTopology,
                             Optional<String> emulatedDeviceModel, long emulatedDeviceMemory,
                             EmulatedExecution emulatedExecution, Optional<Path> kernelCache) {
    public BackendOptions {
        if (numberOfGpus < 0 || emulatedDevices < 0) {
            throw new IllegalArgumentException("device counts must be at least 0, got NumberOfGPUs=" + numberOfGpus
                    + ", EmulatedDevices=" + emulatedDevices);
        }
        if (emulatedDeviceMemory < 0) {
            throw new IllegalArgumentException("EmulatedDeviceMemory must be at least 0 (the model's), got "
                    + emulatedDeviceMemory);
        }
        if (memoryModel == null || bandwidthMatrix == null || nvrtcLibrary == null || emulatedTopology == null
                || emulatedDeviceModel == null || emulatedExecution == null || kernelCache == null) {
            throw new IllegalArgumentException("every backend option must be given (Optional.empty() when unset)");
        }
    }

    /**
     * Nothing configured: all devices, explicit memory, the backends' own topology and search paths, the kernel cache
     * in its per-user directory.
     */
    public static BackendOptions defaults() {
        return new BackendOptions(0, MemoryModel.EXPLICIT, Optional.empty(), Optional.empty(), 0, Optional.empty(),
                Optional.empty(), 0, EmulatedExecution.FULL, Optional.of(KernelCache.defaultDirectory()));
    }

    public BackendOptions withNumberOfGpus(int value) {
        return new BackendOptions(value, memoryModel, bandwidthMatrix, nvrtcLibrary, emulatedDevices,
                emulatedTopology, emulatedDeviceModel, emulatedDeviceMemory, emulatedExecution, kernelCache);
    }

    public BackendOptions withMemoryModel(MemoryModel value) {
        return new BackendOptions(numberOfGpus, value, bandwidthMatrix, nvrtcLibrary, emulatedDevices,
                emulatedTopology, emulatedDeviceModel, emulatedDeviceMemory, emulatedExecution, kernelCache);
    }

    public BackendOptions withBandwidthMatrix(String value) {
        return new BackendOptions(numberOfGpus, memoryModel, Optional.of(value), nvrtcLibrary, emulatedDevices,
                emulatedTopology, emulatedDeviceModel, emulatedDeviceMemory, emulatedExecution, kernelCache);
    }

    public BackendOptions withNvrtcLibrary(Path value) {
        return new BackendOptions(numberOfGpus, memoryModel, bandwidthMatrix, Optional.of(value), emulatedDevices,
                emulatedTopology, emulatedDeviceModel, emulatedDeviceMemory, emulatedExecution, kernelCache);
    }

    public BackendOptions withEmulatedDevices(int value) {
        return new BackendOptions(numberOfGpus, memoryModel, bandwidthMatrix, nvrtcLibrary, value, emulatedTopology,
                emulatedDeviceModel, emulatedDeviceMemory, emulatedExecution, kernelCache);
    }

    public BackendOptions withEmulatedTopology(String value) {
        return new BackendOptions(numberOfGpus, memoryModel, bandwidthMatrix, nvrtcLibrary, emulatedDevices,
                Optional.of(value), emulatedDeviceModel, emulatedDeviceMemory, emulatedExecution, kernelCache);
    }

    public BackendOptions withEmulatedDeviceModel(String value) {
        return new BackendOptions(numberOfGpus, memoryModel, bandwidthMatrix, nvrtcLibrary, emulatedDevices,
                emulatedTopology, Optional.of(value), emulatedDeviceMemory, emulatedExecution, kernelCache);
    }

    /** Every emulated device with {@code bytes} of memory, or the model's own when 0. */
    public BackendOptions withEmulatedDeviceMemory(long bytes) {
        return new BackendOptions(numberOfGpus, memoryModel, bandwidthMatrix, nvrtcLibrary, emulatedDevices,
                emulatedTopology, emulatedDeviceModel, bytes, emulatedExecution, kernelCache);
    }

    public BackendOptions withEmulatedExecution(EmulatedExecution value) {
        return new BackendOptions(numberOfGpus, memoryModel, bandwidthMatrix, nvrtcLibrary, emulatedDevices,
                emulatedTopology, emulatedDeviceModel, emulatedDeviceMemory, value, kernelCache);
    }

    /** The cache in {@code directory}, or disabled when empty. */
    public BackendOptions withKernelCache(Optional<Path> directory) {
        return new BackendOptions(numberOfGpus, memoryModel, bandwidthMatrix, nvrtcLibrary, emulatedDevices,
                emulatedTopology, emulatedDeviceModel, emulatedDeviceMemory, emulatedExecution, directory);
    }
}
