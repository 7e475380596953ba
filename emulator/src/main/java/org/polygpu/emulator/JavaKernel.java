package org.polygpu.emulator;

/**
 * The body of a Java kernel: runs the whole grid of one launch (it may simply loop over the elements), reading and
 * writing device memory through {@link KernelContext#pointer}. It runs when the launch completes in virtual time.
 */
@FunctionalInterface
public interface JavaKernel {
    void run(KernelContext context);
}
