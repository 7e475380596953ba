package org.polygpu.cluster;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.ClusterCudaAware;
import org.polygpu.mpi.Mpi;
import org.polygpu.mpi.MpiRequest;

/**
 * The cost of the cluster's paths on one machine, for {@code mpirun -np 2} (scripts/cluster-bench.sh): each rank
 * has one emulated GPU (device 0 on rank 0, device 1 on rank 1). Prints a table of wall-clock times measured on
 * rank 0: microseconds per launch of an empty kernel on rank 0's own device and on rank 1's, batched (64 commands a
 * message) and not (one); how long rank 0's stream takes to pass a wait for rank 1's event, and its call alone; GB/s
 * of copies between the ranks (and the call alone of a copy into rank 0's device), staged through pinned host memory
 * ({@code ClusterCudaAware=off}) and direct from the emulated devices' memory ({@code on}), against MPI's own
 * point-to-point bandwidth between the same two processes. Each figure is the median of {@value #RUNS} runs after one
 * warm-up run. The staged copies are measured first, the direct ones first with {@code --direct-first}.
 */
public final class ClusterBenchmark {
    private static final int RUNS = 7;
    private static final int LAUNCHES = 2000;
    private static final long BYTES = 64L << 20;
    private static final String PTX = ".version 8.0\n.target sm_70\n.address_size 64\n"
            + ".visible .entry noop(.param .u64 p)\n{\n    ret;\n}\n";

    private ClusterBenchmark() {
    }

    public static void main(String[] args) {
        BackendOptions options = BackendOptions.defaults().withEmulatedDevices(1);
        Session session = Session.join(Duration.ofSeconds(60));
        double mpiGbs = mpiBandwidth(session, BYTES);
        double mpiChunkedGbs = mpiBandwidth(session, Transport.CHUNK_BYTES);
        if (session.rank() != 0) {
            new Worker(session, "emulated", options).serve();
        }
        System.out.printf(Locale.ROOT, "%-52s %14s%n", "path (wall clock on rank 0, median of " + RUNS + ")",
                "figure");
        row("MPI point-to-point, one 64 MiB message", mpiGbs, "GB/s");
        row("MPI point-to-point, 64 MiB in 4 MiB messages", mpiChunkedGbs, "GB/s");
        try (Backend b = open(session, options, ClusterCudaAware.OFF, ClusterBackend.BATCH_LIMIT)) {
            row("launch on rank 0's own device", launchMicros(b, 0), "us/launch");
            row("launch on rank 1's device, batched (" + ClusterBackend.BATCH_LIMIT + ")", launchMicros(b, 1),
                    "us/launch");
            row("rank 0's stream waits for rank 1's " + LAUNCHES / 10 + " launches", heldWait(b, false) / 1e3,
                    "us");
            row("  the wait's call alone", heldWait(b, true) / 1e3, "us");
        }
        boolean directFirst = List.of(args).contains("--direct-first");
        for (ClusterCudaAware path : directFirst ? new ClusterCudaAware[] {ClusterCudaAware.ON, ClusterCudaAware.OFF}
                : new ClusterCudaAware[] {ClusterCudaAware.OFF, ClusterCudaAware.ON}) {
            try (Backend b = open(session, options, path, ClusterBackend.BATCH_LIMIT)) {
                copies(b, path == ClusterCudaAware.ON ? "direct" : "staged");
            }
        }
        try (Backend b = open(session, options, ClusterCudaAware.OFF, 1)) {
            row("launch on rank 1's device, unbatched", launchMicros(b, 1), "us/launch");
        }
    }

    /** The job's backend over one emulated GPU per rank, copying between ranks as {@code cudaAware} says. */
    private static Backend open(Session session, BackendOptions options, ClusterCudaAware cudaAware, int limit) {
        return ClusterOpening.open(session, Backends.open("emulated", options), cudaAware, limit).backend();
    }

    private static void row(String what, double value, String unit) {
        System.out.printf(Locale.ROOT, "%-52s %10.2f %s%n", what, value, unit);
    }

    /** Microseconds per launch: {@value #LAUNCHES} empty kernels on one stream, then a wait for the last. */
    private static double launchMicros(Backend b, int device) {
        FunctionHandle noop = b.function(b.loadModule(device, new ModuleImage.Ptx(PTX)), "noop");
        DeviceBuffer buffer = b.allocate(device, 256);
        StreamHandle stream = b.createStream(device);
        EventHandle done = b.createEvent(device);
        double micros = median(() -> {
            long start = System.nanoTime();
            for (int i = 0; i < LAUNCHES; i++) {
                b.launch(noop, LaunchConfig.of(1, 32), new Object[] {buffer}, stream, OperationLabel.NONE);
            }
            b.recordEvent(done, stream);
            b.synchronizeEvent(done);
            return System.nanoTime() - start;
        }) / 1e3 / LAUNCHES;
        b.destroyEvent(done);
        b.destroyStream(stream);
        b.free(buffer);
        return micros;
    }

    /**
     * Nanoseconds until rank 0's stream, told to wait for rank 1's event recorded after {@value #LAUNCHES}/10 launches,
     * has passed it (an event recorded after the wait has completed), or with {@code callOnly} of the wait's call.
     */
    private static double heldWait(Backend b, boolean callOnly) {
        FunctionHandle noop = b.function(b.loadModule(1, new ModuleImage.Ptx(PTX)), "noop");
        DeviceBuffer buffer = b.allocate(1, 256);
        StreamHandle remote = b.createStream(1);
        StreamHandle local = b.createStream(0);
        EventHandle launched = b.createEvent(1);
        EventHandle passed = b.createEvent(0);
        double nanos = median(() -> {
            for (int i = 0; i < LAUNCHES / 10; i++) {
                b.launch(noop, LaunchConfig.of(1, 32), new Object[] {buffer}, remote, OperationLabel.NONE);
            }
            b.recordEvent(launched, remote);
            long start = System.nanoTime();
            b.streamWaitEvent(local, launched);
            long called = System.nanoTime();
            b.recordEvent(passed, local);
            b.synchronizeEvent(passed);
            return (callOnly ? called : System.nanoTime()) - start;
        });
        b.destroyEvent(passed);
        b.destroyEvent(launched);
        b.destroyStream(local);
        b.destroyStream(remote);
        b.free(buffer);
        return nanos;
    }

    /** The four kinds of copies between the ranks, labelled with {@code path} (staged or direct). */
    private static void copies(Backend b, String path) {
        MemorySegment host = b.allocateHost(BYTES);
        DeviceBuffer local = b.allocate(0, BYTES);
        DeviceBuffer remote = b.allocate(1, BYTES);
        StreamHandle onLocal = b.createStream(0);
        StreamHandle onRemote = b.createStream(1);
        row("copy rank 0 host -> rank 1 device, 64 MiB, " + path, gbs(copy(b, onRemote,
                () -> b.copyHostToDevice(host, remote, BYTES, onRemote, OperationLabel.NONE), false)), "GB/s");
        row("copy rank 1 device -> rank 0 host, 64 MiB, " + path, gbs(copy(b, onRemote,
                () -> b.copyDeviceToHost(remote, host, BYTES, onRemote, OperationLabel.NONE), false)), "GB/s");
        row("copy rank 0 device -> rank 1 device, 64 MiB, " + path, gbs(copy(b, onRemote,
                () -> b.copyDeviceToDevice(local, remote, BYTES, onRemote, OperationLabel.NONE), false)), "GB/s");
        Runnable pull = () -> b.copyDeviceToDevice(remote, local, BYTES, onLocal, OperationLabel.NONE);
        row("copy rank 1 device -> rank 0 device, 64 MiB, " + path, gbs(copy(b, onLocal, pull, false)), "GB/s");
        row("  the copy's call alone, " + path, copy(b, onLocal, pull, true) / 1e3, "us");
        b.destroyStream(onLocal);
        b.destroyStream(onRemote);
        b.free(local);
        b.free(remote);
        b.freeHost(host);
    }

    /** Nanoseconds of one copy and the wait for it, or with {@code callOnly} of the copy's call alone. */
    private static double copy(Backend b, StreamHandle stream, Runnable copy, boolean callOnly) {
        EventHandle done = b.createEvent(stream.device());
        double nanos = median(() -> {
            long start = System.nanoTime();
            copy.run();
            long called = System.nanoTime();
            b.recordEvent(done, stream);
            b.synchronizeEvent(done);
            return (callOnly ? called : System.nanoTime()) - start;
        });
        b.destroyEvent(done);
        return nanos;
    }

    private static double gbs(double nanos) {
        return BYTES / nanos;
    }

    /**
     * Rank 0 sends 64 MiB to rank 1 in messages of {@code message} bytes, all started at once, and rank 1 answers
     * with one byte once it has them all; both ranks call this.
     */
    private static double mpiBandwidth(Session session, long message) {
        Mpi mpi = session.transport().mpi();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(BYTES);
            MemorySegment ack = arena.allocate(1);
            int tag = 3;
            double nanos = median(() -> {
                long start = System.nanoTime();
                List<MpiRequest> requests = new ArrayList<>();
                for (long at = 0; at < BYTES && session.rank() < 2; at += message) {
                    MemorySegment part = data.asSlice(at, message);
                    requests.add(session.rank() == 0 ? mpi.isend(part, 1, tag) : mpi.irecv(part, 0, tag));
                }
                requests.forEach(ClusterBenchmark::complete);
                if (session.rank() == 0) {
                    complete(mpi.irecv(ack, 1, tag));
                } else if (session.rank() == 1) {
                    complete(mpi.isend(ack, 0, tag));
                }
                return System.nanoTime() - start;
            });
            return BYTES / nanos;
        }
    }

    private static void complete(MpiRequest request) {
        while (request.test().isEmpty()) {
            Thread.onSpinWait();
        }
    }

    /** The median of {@value #RUNS} runs of {@code run} after one warm-up run. */
    private static double median(LongSupplier run) {
        run.getAsLong();
        long[] times = new long[RUNS];
        for (int i = 0; i < RUNS; i++) {
            times[i] = run.getAsLong();
        }
        Arrays.sort(times);
        return times[RUNS / 2];
    }
}
