package org.polygpu.cuda;

import org.polygpu.backend.DeviceProperties;

/** Reads a CUDA device's {@link DeviceProperties} from the driver's attributes. Stateless. */
final class CudaDeviceQuery {
    private CudaDeviceQuery() {
    }

    static DeviceProperties properties(CudaDriver driver, int cuDevice) {
        return new DeviceProperties(driver.deviceName(cuDevice),
                driver.attribute(cuDevice, CuDeviceAttribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                driver.attribute(cuDevice, CuDeviceAttribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
                driver.totalMemory(cuDevice),
                driver.attribute(cuDevice, CuDeviceAttribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
                clockKhz(driver, cuDevice),
                driver.attribute(cuDevice, CuDeviceAttribute.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                driver.attribute(cuDevice, CuDeviceAttribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
                driver.attribute(cuDevice, CuDeviceAttribute.CU_DEVICE_ATTRIBUTE_WARP_SIZE));
    }

    /**
     * The SM clock in kHz, or 0 when the driver no longer reports it: the attribute is deprecated since CUDA 12 and
     * the clock only informs the emulator's timing model, so its absence must not stop a real GPU from running.
     */
    private static int clockKhz(CudaDriver driver, int cuDevice) {
        try {
            return driver.attribute(cuDevice, CuDeviceAttribute.CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
        } catch (CudaException e) {
            return 0;
        }
    }
}
