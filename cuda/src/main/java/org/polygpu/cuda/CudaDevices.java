package org.polygpu.cuda;

import java.lang.foreign.MemorySegment;
import org.polygpu.backend.DeviceProperties;

/**
 * The devices a {@link CudaBackend} opened, by backend ordinal: each one's {@code CUdevice}, retained primary context,
 * internal stream (for zero-filling new buffers and recording timeline epochs) and {@link DeviceProperties}.
 *
 * <p>Lifecycle: created empty; {@link #setUp()} retains the contexts, creates the internal streams and enables peer
 * access; {@link #release} destroys the internal streams and releases the contexts, also after a set-up that failed
 * part way (it skips what was never made). Not thread-safe (the backend's single caller).
 */
final class CudaDevices {
    private final CudaDriver driver;
    private final int[] cuDevices;
    private final MemorySegment[] contexts;
    private final MemorySegment[] internalStreams;
    private final DeviceProperties[] properties;

    CudaDevices(CudaDriver driver, int count) {
        this.driver = driver;
        this.cuDevices = new int[count];
        this.contexts = new MemorySegment[count];
        this.internalStreams = new MemorySegment[count];
        this.properties = new DeviceProperties[count];
    }

    /** Retains every device's primary context, then enables peer access between every pair that supports it. */
    void setUp() {
        for (int d = 0; d < cuDevices.length; d++) {
            cuDevices[d] = driver.device(d);
            contexts[d] = driver.retainPrimaryContext(cuDevices[d]);
            driver.setCurrent(contexts[d]);
            internalStreams[d] = driver.createStream(CudaDriver.STREAM_NON_BLOCKING);
            properties[d] = CudaDeviceQuery.properties(driver, cuDevices[d]);
        }
        for (int d = 0; d < cuDevices.length; d++) {
            for (int p = 0; p < cuDevices.length; p++) {
                if (p != d && driver.canAccessPeer(cuDevices[d], cuDevices[p])) {
                    driver.setCurrent(contexts[d]);
                    driver.enablePeerAccess(contexts[p]);
                }
            }
        }
    }

    int count() {
        return contexts.length;
    }

    /** The driver's {@code CUdevice} of backend device {@code device}. */
    int cuDevice(int device) {
        return cuDevices[device];
    }

    MemorySegment context(int device) {
        return contexts[device];
    }

    /** The device's own stream, used only inside the backend. */
    MemorySegment internalStream(int device) {
        return internalStreams[device];
    }

    DeviceProperties properties(int device) {
        return properties[device];
    }

    /** Makes {@code device}'s context current on the calling thread. */
    void current(int device) {
        driver.setCurrent(contexts[device]);
    }

    /** Fails unless {@code device} is one of the opened devices. */
    void check(int device) {
        if (device < 0 || device >= contexts.length) {
            throw new IllegalArgumentException("device " + device + " is out of range: valid devices are 0.."
                    + (contexts.length - 1));
        }
    }

    /**
     * Destroys the internal streams and releases the primary contexts, continuing past failures; returns
     * {@code failure} with every further failure added.
     */
    RuntimeException release(RuntimeException failure) {
        for (int d = 0; d < contexts.length; d++) {
            if (contexts[d] == null) {
                continue;
            }
            try {
                if (internalStreams[d] != null) {
                    driver.setCurrent(contexts[d]);
                    driver.destroyStream(internalStreams[d]);
                }
                driver.releasePrimaryContext(cuDevices[d]);
            } catch (RuntimeException e) {
                failure = CudaRegistry.add(failure, e);
            }
        }
        return failure;
    }
}
