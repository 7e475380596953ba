package org.polygpu.emulator;

import java.lang.ref.Cleaner;

/**
 * Releases the native resources of one emulated backend: its devices' memories, its host allocations and the
 * interpreter's worker threads. {@link EmulatedBackend#close()} runs it; a {@link Cleaner} runs it too if a backend
 * becomes unreachable without being closed, so that a forgotten backend does not keep gigabytes of emulated device
 * memory. It holds no reference to the backend (its handles are owned by an identity token, not by the backend), or
 * the cleaner could never run. Runs at most once.
 */
final class NativeRelease implements Runnable {
    private static final Cleaner CLEANER = Cleaner.create();

    private final DeviceMemory[] memories;
    private final HostMemory hostMemory;
    private final ManagedMemory managedMemory;
    private final PtxKernels interpreter;

    private NativeRelease(DeviceMemory[] memories, HostMemory hostMemory, ManagedMemory managedMemory,
                          PtxKernels interpreter) {
        this.memories = memories;
        this.managedMemory = managedMemory;
        this.hostMemory = hostMemory;
        this.interpreter = interpreter;
    }

    /** Registers the release of these resources for when {@code backend} becomes unreachable. */
    static Cleaner.Cleanable register(Object backend, DeviceMemory[] memories, HostMemory hostMemory,
                                      ManagedMemory managedMemory, PtxKernels interpreter) {
        return CLEANER.register(backend, new NativeRelease(memories, hostMemory, managedMemory, interpreter));
    }

    @Override
    public void run() {
        interpreter.close();
        for (DeviceMemory m : memories) {
            m.releaseAll();
        }
        hostMemory.releaseAll();
        managedMemory.releaseAll();
    }
}
