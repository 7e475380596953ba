package org.polygpu.backend;

/**
 * A routine of a device library, such as cuBLAS's {@code cublasSaxpy}, as the scheduler hands it to
 * {@link Backend#launchLibrary}: a backend with the library calls it natively; a backend without it (the emulator) runs
 * its Java implementation over device memory and times it with a roofline from its declared work. Implementations
 * are immutable values.
 */
public interface LibraryRoutine {
    /** The routine's name, such as {@code cublasSaxpy}. */
    String name();

    /**
     * Floating-point operations of one call with {@code arguments} (boxed scalars, and device buffers or memory for
     * pointers), for a roofline.
     */
    double flops(Object[] arguments);

    /** Bytes of device memory one call with {@code arguments} reads and writes, for a roofline. */
    double bytes(Object[] arguments);

    /**
     * Runs the routine in Java: each pointer argument is the {@code java.lang.foreign.MemorySegment} of a device
     * buffer, each scalar boxed as for a kernel. For backends whose device memory the host can address.
     *
     * @throws IllegalArgumentException when the arguments reach past the memory they point to
     */
    void runInJava(Object[] arguments);
}
