package org.polygpu.lang.objects;

import org.polygpu.backend.DeviceProperties;
import org.polygpu.lang.PolygpuRuntime;

/** The properties of a device as guest code names them (GrCUDA's camelCase names). */
enum DeviceProperty {
    deviceName,
    totalDeviceMemory,
    freeDeviceMemory,
    computeCapabilityMajor,
    computeCapabilityMinor,
    multiProcessorCount,
    clockRate,
    maxThreadsPerBlock,
    maxSharedMemoryPerBlock,
    warpSize;

    static DeviceProperty of(String name) {
        for (DeviceProperty p : values()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    static Object[] names() {
        DeviceProperty[] all = values();
        Object[] names = new Object[all.length];
        for (int i = 0; i < all.length; i++) {
            names[i] = all[i].name();
        }
        return names;
    }

    /** The value on {@code device}: one runtime call (free memory is asked for each time). */
    Object read(PolygpuRuntime runtime, int device) {
        if (this == freeDeviceMemory) {
            return runtime.freeMemory(device);
        }
        DeviceProperties p = runtime.deviceProperties(device);
        return switch (this) {
            case deviceName -> p.name();
            case totalDeviceMemory -> p.totalMemory();
            case computeCapabilityMajor -> p.computeMajor();
            case computeCapabilityMinor -> p.computeMinor();
            case multiProcessorCount -> p.multiprocessors();
            case clockRate -> p.clockKhz();
            case maxThreadsPerBlock -> p.maxThreadsPerBlock();
            case maxSharedMemoryPerBlock -> p.maxSharedMemoryPerBlock();
            case warpSize -> p.warpSize();
            case freeDeviceMemory -> throw new AssertionError("handled above");
        };
    }
}
