package org.polygpu.cluster;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.config.ClusterCudaAware;
import org.polygpu.topology.BandwidthMatrix;

/**
 * The loop a rank other than 0 runs instead of the program: it serves rank 0's commands for its own devices until
 * rank 0's program ends ({@link Op#SHUTDOWN}), then finalises MPI and ends the process. Rank 0's messages run in
 * order on one command thread ({@link WorkerCommands}); requests of other ranks ({@link Op#SYNC_EVENT},
 * {@link Op#PULL_BUFFER}) run at once on the {@link LocalService}'s pool; the receiver thread only dispatches.
 *
 * <p>Test hooks, for failure detection tests only: the system property {@code polygpu.cluster.testSilentRank}
 * names a rank that stops answering right after it has opened its devices, {@code polygpu.cluster.testExitRank} one
 * that exits with status 3 at that point, as a hung or crashed worker would.
 */
final class Worker {
    private final Session session;
    private final Transport transport;
    private final String backendName;
    private final BackendOptions options;
    private final ExecutorService commandThread = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform()
            .daemon().name("polygpu-mpi-commands").unstarted(r));
    private final CountDownLatch shutdown = new CountDownLatch(1);
    private final ObjectTable objects = new ObjectTable();
    private volatile LocalService service;
    private WorkerCommands commands;

    Worker(Session session, String backendName, BackendOptions options) {
        this.session = session;
        this.transport = session.transport();
        this.backendName = backendName;
        this.options = options;
    }

    /** Serves until rank 0's program ends, then ends this process. Never returns. */
    void serve() {
        transport.handler(this::handle);
        boolean interrupted = false;
        while (shutdown.getCount() > 0) {
            try {
                shutdown.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        // Rank 0 closes its backend before its program ends, which drains every queue here; when it ended without
        // (an exit in the middle of its work), queues may wait for rank 0, which no longer answers: nothing is
        // drained then, the process ends with its work.
        commandThread.shutdownNow();
        session.endWorker(interrupted ? 1 : 0);
    }

    private void handle(int source, Op op, WireReader message) {
        LocalService s = service;
        if (op == Op.SHUTDOWN) {
            shutdown.countDown();
        } else if (s == null || !s.serve(source, op, message)) {
            commandThread.execute(() -> run(source, op, message));
        }
    }

    /** One message of rank 0, on the command thread. */
    private void run(int source, Op op, WireReader message) {
        if (op == Op.OPEN) {
            open(source, message.getLong(), ClusterCudaAware.values()[message.getInt()]);
        } else if (commands == null) {
            if (op != Op.BATCH) {
                transport.reply(source, message.getLong(), "rank " + session.rank() + " has no devices open", null);
            }
        } else {
            commands.run(source, op, message);
            if (op == Op.CLOSE) {
                commands = null;
            }
        }
    }

    /** Opens this rank's devices and answers with them, its matrix, and whether it takes the direct path. */
    private void open(int source, long id, ClusterCudaAware cudaAware) {
        WireWriter payload = new WireWriter();
        try {
            OpenedBackend opened = Backends.open(backendName, options);
            Backend local = new LockedBackend(opened.backend());
            boolean mpiCudaAware = session.cudaAware();
            boolean direct;
            try {
                direct = DirectPath.capable(cudaAware, mpiCudaAware, local.deviceAddressing(), session.rank());
            } catch (RuntimeException e) {
                local.close();
                throw e;
            }
            objects.clear();
            LocalService previous = service;
            if (previous != null) {
                previous.close();
            }
            EventGenerations events = new EventGenerations(local);
            service = new LocalService(transport, local, objects, events::synchronize);
            commands = new WorkerCommands(transport, local, objects, events, service, this::stream);
            payload.putString(session.host()).putInt(local.deviceCount());
            for (int d = 0; d < local.deviceCount(); d++) {
                Codec.writeProperties(payload, local.deviceProperties(d));
                payload.putLong(local.replicaMemory(d));
            }
            BandwidthMatrix m = opened.bandwidth().restrictedTo(local.deviceCount());
            for (double[] row : m.toArray()) {
                for (double v : row) {
                    payload.putDouble(v);
                }
            }
            payload.putBoolean(mpiCudaAware).putBoolean(direct);
            transport.reply(source, id, "", payload);
        } catch (RuntimeException e) {
            transport.reply(source, id, "cannot open its devices: " + e.getMessage(), null);
            return;
        }
        testHooks();
    }

    private String stream(long key) {
        return "polygpu-mpi-stream-" + key;
    }

    private void testHooks() {
        String rank = Integer.toString(session.rank());
        if (rank.equals(System.getProperty("polygpu.cluster.testExitRank"))) {
            Runtime.getRuntime().halt(3);
        }
        if (rank.equals(System.getProperty("polygpu.cluster.testSilentRank"))) {
            transport.stopAnswering();
            commandThread.shutdownNow();
        }
    }
}
