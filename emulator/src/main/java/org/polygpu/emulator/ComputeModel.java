package org.polygpu.emulator;

import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The fluid model of one device's execution resources (SMs and memory bandwidth together), shared by the kernels
 * that run on it at once, as {@link LinkModel} shares a link among transfers.
 *
 * <p>A kernel alone progresses at its own speed: it needs {@link KernelDemand#soloNanos()} and uses the fraction
 * {@link KernelDemand#share()} of the device meanwhile. While the active kernels' shares add up to at most 1 they
 * all fit and none slows down (small grids overlap, as on a GPU); when they add up to {@code S > 1} the device is
 * oversubscribed and each progresses at {@code 1 / S} of its own speed, so the device's throughput stays what one
 * full kernel gets. Kernels on one device therefore finish no sooner together than one after the other, and two
 * GPUs do twice the work of one.
 *
 * <p>Every active kernel progresses at the same fraction of its own speed, so one cumulative service counter (in
 * nanoseconds of solo execution) serves them all, and each kernel is done when the counter reaches its target;
 * joining or finishing costs O(k) for k active kernels (the shares are summed again), which stays small.
 *
 * <p>Limits, against a real GPU: compute and memory are one resource (a compute-bound kernel beside a memory-bound
 * one slows both down as two compute-bound ones would), and the share ignores the limits on resident blocks set by
 * registers and shared memory.
 */
final class ComputeModel {
    private static final Comparator<KernelOperation> BY_TARGET = Comparator
            .comparingDouble((KernelOperation k) -> k.serviceTarget()).thenComparingLong(KernelOperation::sequence);

    private final int device;
    private final PriorityQueue<KernelOperation> active = new PriorityQueue<>(BY_TARGET);
    /** Solo nanoseconds every kernel active since the device was last idle has received. */
    private double service;
    private long lastUpdateNanos;
    /** How much slower than solo the active kernels progress: the sum of their shares, at least 1. */
    private double slowdown = 1;
    /** Changes whenever the predicted next completion does, so that stale predictions can be ignored. */
    private long version;

    ComputeModel(int device) {
        this.device = device;
    }

    /** One model per device. */
    static ComputeModel[] forDevices(int devices) {
        ComputeModel[] models = new ComputeModel[devices];
        for (int d = 0; d < devices; d++) {
            models[d] = new ComputeModel(d);
        }
        return models;
    }

    long version() {
        return version;
    }

    /** {@code kernel} starts executing at {@code now}, after its launch latency; returns the new version. */
    long join(KernelOperation kernel, long now) {
        advance(now);
        kernel.serviceTarget(service + kernel.demand().soloNanos());
        active.add(kernel);
        resum();
        return ++version;
    }

    /** The kernel predicted to finish first, or {@code null} when the device is idle. */
    KernelOperation next() {
        return active.peek();
    }

    /** When {@link #next()} finishes if nothing joins before, given the state at {@code now}. */
    long nextCompletion(long now) {
        KernelOperation head = active.peek();
        double remaining = Math.max(0, head.serviceTarget() - serviceAt(now));
        return now + VirtualTime.ceilNanos(remaining * slowdown);
    }

    /** Removes the first kernel, done at {@code now}; returns it and bumps the version. */
    KernelOperation finishNext(long now) {
        advance(now);
        KernelOperation done = active.poll();
        if (active.isEmpty()) {
            service = 0; // rebase so the counter does not lose precision over a long run
        }
        resum();
        version++;
        return done;
    }

    private void resum() {
        double shares = 0;
        for (KernelOperation k : active) {
            shares += k.demand().share();
        }
        slowdown = Math.max(1, shares);
    }

    private void advance(long now) {
        service = serviceAt(now);
        lastUpdateNanos = now;
    }

    private double serviceAt(long now) {
        if (active.isEmpty()) {
            return service;
        }
        return service + (now - lastUpdateNanos) / slowdown;
    }

    @Override
    public String toString() {
        return "execution resources of device " + device + " (" + active.size() + " kernels active)";
    }
}
