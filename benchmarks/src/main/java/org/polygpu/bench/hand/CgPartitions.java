package org.polygpu.bench.hand;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.StreamHandle;

/**
 * The partitions of the hand-written CG: partition q holds rows {@code offset(q)} to {@code offset(q) + rows(q) - 1}
 * on GPU {@code q G / P} (contiguous runs, G the GPUs used: at most one per partition), with its own stream there
 * and its buffers: its block of A, its slices of x, r and y, and its one-element part of a reduction.
 */
final class CgPartitions {
    private static final int BLOCK = 256;

    private final HandSetup setup;
    private final Backend b;
    private final int n;
    private final int gpus;
    private final int[] offset;
    private final int[] rows;
    private final int[] device;
    private final List<StreamHandle> streams = new ArrayList<>();
    private final List<DeviceBuffer> a = new ArrayList<>();
    private final List<DeviceBuffer> x = new ArrayList<>();
    private final List<DeviceBuffer> r = new ArrayList<>();
    private final List<DeviceBuffer> y = new ArrayList<>();
    private final List<DeviceBuffer> part = new ArrayList<>();

    /** Allocates the partitions of an n x n system split in {@code partitions} as the polygpu program splits it. */
    CgPartitions(HandSetup setup, int n, int partitions) {
        this.setup = setup;
        this.b = setup.backend;
        this.n = n;
        int size = (n + partitions - 1) / partitions;
        int count = (n + size - 1) / size;
        gpus = Math.min(setup.gpus(), count);
        offset = new int[count];
        rows = new int[count];
        device = new int[count];
        for (int q = 0; q < count; q++) {
            offset[q] = q * size;
            rows[q] = Math.min(size, n - offset[q]);
            device[q] = (int) ((long) q * gpus / count);
            streams.add(b.createStream(device[q]));
            a.add(b.allocate(device[q], (long) rows[q] * n * Float.BYTES));
            x.add(b.allocate(device[q], (long) rows[q] * Float.BYTES));
            r.add(b.allocate(device[q], (long) rows[q] * Float.BYTES));
            y.add(b.allocate(device[q], (long) rows[q] * Float.BYTES));
            part.add(b.allocate(device[q], Float.BYTES));
        }
    }

    /**
     * Copies each partition's block of {@code matrix} and slice of {@code rhs} (as r) in, on its stream; x stays as
     * allocated, zero.
     */
    void load(float[][] matrix, float[] rhs) {
        for (int q = 0; q < count(); q++) {
            float[] block = new float[rows[q] * n];
            for (int i = 0; i < rows[q]; i++) {
                System.arraycopy(matrix[offset[q] + i], 0, block, i * n, n);
            }
            setup.copyIn(setup.host(block), a.get(q), a.get(q).bytes(), streams.get(q), "a");
            float[] slice = Arrays.copyOfRange(rhs, offset[q], offset[q] + rows[q]);
            setup.copyIn(setup.host(slice), r.get(q), r.get(q).bytes(), streams.get(q), "r");
        }
    }

    /** Copies every partition's x back, on its stream; the segments hold them once the copies completed. */
    List<MemorySegment> readX() {
        List<MemorySegment> out = new ArrayList<>();
        for (int q = 0; q < count(); q++) {
            MemorySegment host = setup.host(x.get(q).bytes());
            setup.copyOut(x.get(q), host, x.get(q).bytes(), streams.get(q), "x");
            out.add(host);
        }
        return out;
    }

    /** Launches {@code kernel} on partition q's stream with {@code grid} blocks of 256 threads. */
    void launch(int q, String kernel, int grid, Object... arguments) {
        setup.launch(device[q], kernel, LaunchConfig.of(grid, BLOCK), streams.get(q), arguments);
    }

    /** An event after the work enqueued so far on partition q's stream. */
    EventHandle record(int q) {
        return Collectives.record(b, device[q], streams.get(q));
    }

    int n() {
        return n;
    }

    /** GPUs used: 0 to {@code gpus() - 1}. */
    int gpus() {
        return gpus;
    }

    int count() {
        return offset.length;
    }

    int offset(int q) {
        return offset[q];
    }

    int rows(int q) {
        return rows[q];
    }

    int device(int q) {
        return device[q];
    }

    /** Every partition's GPU, by partition. */
    int[] devices() {
        return device.clone();
    }

    StreamHandle stream(int q) {
        return streams.get(q);
    }

    DeviceBuffer a(int q) {
        return a.get(q);
    }

    DeviceBuffer x(int q) {
        return x.get(q);
    }

    DeviceBuffer r(int q) {
        return r.get(q);
    }

    DeviceBuffer y(int q) {
        return y.get(q);
    }

    DeviceBuffer part(int q) {
        return part.get(q);
    }

    /** Every partition's part, by partition. */
    List<DeviceBuffer> parts() {
        return List.copyOf(part);
    }
}
