package org.polygpu.emulator;

/**
 * What the managed memory of an emulated backend moved so far ({@code MemoryModel=managed}).
 *
 * @param migrations     prefetches and host migrations completed, including those that found every page in place
 * @param migratedBytes  bytes they moved
 * @param faultedPages   pages kernels touched away from their device, each paying the fault latency
 * @param faultedBytes   bytes those faults moved
 */
public record ManagedMigrations(long migrations, long migratedBytes, long faultedPages, long faultedBytes) {
}
