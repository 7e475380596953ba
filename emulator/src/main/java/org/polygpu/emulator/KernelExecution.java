package org.polygpu.emulator;

/**
 * What a {@link KernelOperation} does with its kernel: a Java kernel runs at completion, its demand declared
 * beforehand ({@link JavaExecution}); a PTX kernel runs on the interpreter at its start, which yields its counters
 * and so its demand ({@link PtxExecution}).
 */
sealed interface KernelExecution permits JavaExecution, PtxExecution {
    /** Called when the operation starts; returns what the kernel asks of its device. Must not throw. */
    KernelDemand start();

    /** Called when the operation completes: the data effect or the report of what happened at the start. */
    void finish();
}
