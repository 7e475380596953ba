package org.polygpu.emulator;

import org.polygpu.backend.LaunchConfig;

/**
 * The declared cost of a Java kernel: the work one launch performs, from its configuration and arguments. The
 * emulator turns it into a duration with the device model's roofline ({@link DeviceModel#rooflineNanos}).
 */
@FunctionalInterface
public interface KernelCost {
    /**
     * The work of one launch. {@code arguments} are the launch's arguments (device buffers and boxed scalars); the
     * function must not modify them.
     */
    KernelWork work(LaunchConfig config, Object[] arguments);

    /** The same work for every launch. */
    static KernelCost fixed(double flops, double bytes) {
        KernelWork work = new KernelWork(flops, bytes);
        return (config, arguments) -> work;
    }

    /** Work proportional to the number of threads launched (grid × block). */
    static KernelCost perThread(double flopsPerThread, double bytesPerThread) {
        new KernelWork(flopsPerThread, bytesPerThread); // validates both rates
        return (config, arguments) -> new KernelWork(config.threadCount() * flopsPerThread,
                config.threadCount() * bytesPerThread);
    }

    /**
     * Work proportional to an element count passed as the integral scalar argument {@code countArgument}, for
     * kernels that loop over {@code n} elements whatever the grid size.
     */
    static KernelCost perElement(int countArgument, double flopsPerElement, double bytesPerElement) {
        new KernelWork(flopsPerElement, bytesPerElement); // validates both rates
        if (countArgument < 0) {
            throw new IllegalArgumentException("countArgument must be non-negative, got " + countArgument);
        }
        return (config, arguments) -> {
            if (countArgument >= arguments.length
                    || !(arguments[countArgument] instanceof Number n) || n instanceof Float || n instanceof Double) {
                throw new IllegalArgumentException("the cost needs an integral element count as argument "
                        + countArgument);
            }
            long count = n.longValue();
            return new KernelWork(count * flopsPerElement, count * bytesPerElement);
        };
    }
}
