package org.polygpu.cuda;

import java.util.function.Supplier;

/**
 * Finds out whether CUDA can run here, without ever failing: {@code libcuda.so.1} missing → no driver;
 * {@code cuInit(0)} returning 100 ({@code CUDA_ERROR_NO_DEVICE}) → no device; 34 ({@code CUDA_ERROR_STUB_LIBRARY})
 * → the toolkit's stub library was found instead of a driver; any other failure is reported with its C name;
 * otherwise the devices are counted.
 *
 * <p>The system's answer is computed once per JVM (a driver does not appear while the JVM runs). Thread-safe.
 */
public final class CudaDetection {
    private static volatile Result system;

    private CudaDetection() {
    }

    /** What detection found. */
    public enum State { NO_DRIVER, STUB_LIBRARY, NO_DEVICE, INIT_FAILED, USABLE }

    /**
     * The outcome of detection.
     *
     * @param state         what was found
     * @param deviceCount   CUDA devices visible (0 unless {@code USABLE})
     * @param driverVersion the driver's CUDA version ({@code 12.4}), or empty when unknown
     * @param reason        one line for the user, e.g. {@code no CUDA driver (libcuda.so.1 not found)}
     */
    public record Result(State state, int deviceCount, String driverVersion, String reason) {
        public boolean usable() {
            return state == State.USABLE;
        }
    }

    /** Detection on this machine, once per JVM. */
    public static Result detect() {
        Result r = system;
        if (r == null) {
            // The driver reads its module loading mode at its first cuInit, which may be this one.
            ModuleLoading.preferEager();
            r = detect(FfmCudaDriverApi::open);
            system = r;
        }
        return r;
    }

    /** Detection through {@code loader}, which may throw a {@link CudaException} when the library is missing. */
    static Result detect(Supplier<CudaDriverApi> loader) {
        CudaDriverApi api;
        try {
            api = loader.get();
        } catch (CudaException e) {
            return new Result(State.NO_DRIVER, 0, "", e.getMessage());
        } catch (RuntimeException e) {
            return new Result(State.NO_DRIVER, 0, "", "the CUDA driver cannot be loaded: " + e);
        }
        CudaDriver driver = new CudaDriver(api);
        try {
            int code = api.init(0);
            if (code == CuResult.CUDA_ERROR_NO_DEVICE.code()) {
                return new Result(State.NO_DEVICE, 0, version(driver),
                        "the CUDA driver found no GPU (cuInit: CUDA_ERROR_NO_DEVICE (100))");
            }
            if (code == CuResult.CUDA_ERROR_STUB_LIBRARY.code()) {
                return new Result(State.STUB_LIBRARY, 0, "", FfmCudaDriverApi.LIBRARY + " is the CUDA toolkit's "
                        + "stub library, not an NVIDIA driver (cuInit: CUDA_ERROR_STUB_LIBRARY (34))");
            }
            if (code != 0) {
                return new Result(State.INIT_FAILED, 0, version(driver), "the CUDA driver cannot start (cuInit: "
                        + driver.errorName(code) + " (" + code + "))");
            }
            int count = driver.deviceCount();
            String version = version(driver);
            if (count == 0) {
                return new Result(State.NO_DEVICE, 0, version, "the CUDA driver " + version + " found no GPU");
            }
            return new Result(State.USABLE, count, version, count + " CUDA device" + (count == 1 ? "" : "s")
                    + ", driver " + version);
        } catch (RuntimeException e) {
            return new Result(State.INIT_FAILED, 0, "", "the CUDA driver cannot start: " + e.getMessage());
        }
    }

    private static String version(CudaDriver driver) {
        try {
            return driver.version();
        } catch (RuntimeException e) {
            return "";
        }
    }
}
