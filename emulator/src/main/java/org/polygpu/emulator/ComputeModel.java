package org.polygpu.emulator;

import java.util.ArrayList;
import java.util.List;
import org.polygpu.emulator.timing.DeviceShare;

/**
 * The execution resources of one device (SMs, L2 and memory bandwidth), shared by the kernels that run on it at
 * once, as {@link LinkModel} shares a link among transfers.
 *
 * <p>A kernel alone executes for {@link KernelDemand#soloNanos()}. Beside others, each active kernel runs as its
 * {@link DeviceShare} says it would beside the rest: their resident warps add up on the SMs (issue contention, and
 * taking turns beyond an SM's capacity) and their buffers in L2 (kernels that fit alone may not fit together, and
 * then wait for device memory); when their memory traffic would together need more than the device's bandwidth, all
 * slow down in proportion. So small grids overlap almost for free, grids that fill the device take about as long
 * together as in turn, and memory-bound kernels share the bandwidth.
 *
 * <p>Each kernel keeps the fraction of its work still to do; between two changes of the active set every kernel
 * progresses at a constant rate (the inverse of its shared execution time), and the rates are recomputed when a
 * kernel joins or finishes: O(k^2) for k active kernels, which stays small.
 */
final class ComputeModel {
    private final int device;
    private final List<KernelOperation> active = new ArrayList<>();
    private long lastUpdateNanos;
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
        kernel.remainingWork(1);
        active.add(kernel);
        rerate();
        return ++version;
    }

    /** The kernel predicted to finish first, or {@code null} when the device is idle. */
    KernelOperation next() {
        KernelOperation first = null;
        double firstAt = Double.MAX_VALUE;
        for (KernelOperation k : active) {
            double at = remainingNanos(k);
            if (first == null || at < firstAt || (at == firstAt && k.sequence() < first.sequence())) {
                first = k;
                firstAt = at;
            }
        }
        return first;
    }

    /** When {@link #next()} finishes if nothing joins before, given the state at {@code now}. */
    long nextCompletion(long now) {
        KernelOperation head = next();
        double elapsed = now - lastUpdateNanos;
        return now + VirtualTime.ceilNanos(Math.max(0, remainingNanos(head) - elapsed));
    }

    /** Removes the first kernel, done at {@code now}; returns it and bumps the version. */
    KernelOperation finishNext(long now) {
        KernelOperation done = next();
        advance(now);
        active.remove(done);
        rerate();
        version++;
        return done;
    }

    /** Nanoseconds {@code k} still executes at its current rate, from the last update. */
    private static double remainingNanos(KernelOperation k) {
        return k.remainingWork() * k.sharedNanos();
    }

    private void advance(long now) {
        double elapsed = now - lastUpdateNanos;
        for (KernelOperation k : active) {
            double t = k.sharedNanos();
            k.remainingWork(t <= 0 ? 0 : Math.max(0, k.remainingWork() - elapsed / t));
        }
        lastUpdateNanos = now;
    }

    /** Each active kernel's execution time beside the others ({@link KernelOperation#sharedNanos}). */
    private void rerate() {
        if (active.size() == 1) {
            KernelOperation k = active.get(0);
            k.sharedNanos(k.demand().soloNanos());
            return;
        }
        double warps = 0;
        long footprint = 0;
        for (KernelOperation k : active) {
            warps += k.demand().device().residentWarps();
            footprint += k.demand().device().footprint();
        }
        double bandwidth = 0;
        for (KernelOperation k : active) {
            DeviceShare d = k.demand().device();
            double t = Math.max(k.demand().soloNanos(), d.nanos(warps - d.residentWarps(),
                    footprint - d.footprint()));
            k.sharedNanos(t);
            bandwidth += t <= 0 ? 0 : d.memoryNanos(footprint - d.footprint()) / t;
        }
        if (bandwidth > 1) {
            for (KernelOperation k : active) {
                k.sharedNanos(k.sharedNanos() * bandwidth);
            }
        }
    }

    @Override
    public String toString() {
        return "execution resources of device " + device + " (" + active.size() + " kernels active)";
    }
}
