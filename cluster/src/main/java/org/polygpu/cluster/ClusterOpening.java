package org.polygpu.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.config.ClusterCudaAware;
import org.polygpu.topology.BandwidthMatrix;

/**
 * Opens the backend of a whole job on rank 0: asks every worker to open its devices ({@link Op#OPEN}, with rank 0's
 * {@code ClusterCudaAware}), gathers their properties, replica memory, bandwidth matrices and whether they take the
 * direct path once, and composes the job's matrix ({@link ClusterTopology}) and {@link DirectPath}.
 */
final class ClusterOpening {
    /**
     * How long rank 0 waits for a worker's first answer, which it gives once its JVM has started and its program has
     * reached its polygpu context: tens of seconds for a polyglot engine on a loaded machine.
     */
    static final Duration START = Duration.ofSeconds(120);

    private ClusterOpening() {
    }

    static OpenedBackend open(Session session, OpenedBackend local, ClusterCudaAware cudaAware) {
        return open(session, local, cudaAware, ClusterBackend.BATCH_LIMIT);
    }

    /** The job's backend, sending asynchronous commands in batches of at most {@code batchLimit}. */
    static OpenedBackend open(Session session, OpenedBackend local, ClusterCudaAware cudaAware, int batchLimit) {
        Backend locked = new LockedBackend(local.backend());
        boolean[] mpiCudaAware = new boolean[session.size()];
        boolean[] direct = new boolean[session.size()];
        mpiCudaAware[0] = session.cudaAware();
        direct[0] = DirectPath.capable(cudaAware, mpiCudaAware[0], locked.deviceAddressing(), 0);
        HostService host = new HostService(session, locked);
        Transport transport = session.transport();
        try {
            List<CompletableFuture<WireReader>> replies = new ArrayList<>();
            for (int r = 1; r < session.size(); r++) {
                replies.add(transport.callAsync(r, Op.OPEN, w -> w.putInt(cudaAware.ordinal())));
            }
            List<RemoteRank> remotes = new ArrayList<>();
            List<BandwidthMatrix> matrices = new ArrayList<>(List.of(local.bandwidth()));
            StringBuilder notice = new StringBuilder(local.notice() + "; Cluster=mpi: rank 0 on " + session.host()
                    + " with " + locked.deviceCount() + " devices");
            int first = locked.deviceCount();
            for (int r = 1; r < session.size(); r++) {
                WireReader m = transport.await(r, replies.get(r - 1), "opening rank " + r + "'s devices",
                        START.toNanos());
                RemoteRank remote = readRank(m, r, first, transport, batchLimit);
                mpiCudaAware[r] = m.getBoolean();
                direct[r] = m.getBoolean();
                remotes.add(remote);
                matrices.add(new BandwidthMatrix(remote.bandwidth()));
                notice.append(", rank ").append(r).append(" on ").append(remote.host()).append(" with ")
                        .append(remote.deviceCount()).append(" (devices ").append(first).append("..")
                        .append(first + remote.deviceCount() - 1).append(')');
                first += remote.deviceCount();
            }
            BandwidthMatrix bandwidth = ClusterTopology.compose(matrices);
            DirectPath path = new DirectPath(cudaAware, direct, mpiCudaAware);
            notice.append("; ").append(path);
            Backend backend = new ClusterBackend(session, locked, host, remotes, path);
            return new OpenedBackend(backend, bandwidth, local.source() + " per rank, links between ranks estimated "
                    + "from each rank's host links", local.measuredTopology(), notice.toString());
        } catch (RuntimeException e) {
            host.close();
            throw e;
        }
    }

    /** Reads a worker's answer to {@link Op#OPEN}, as {@link Worker} writes it, up to its direct path's flags. */
    private static RemoteRank readRank(WireReader m, int rank, int first, Transport transport, int batchLimit) {
        String host = m.getString();
        int count = m.getInt();
        List<DeviceProperties> properties = new ArrayList<>();
        long[] replica = new long[count];
        for (int i = 0; i < count; i++) {
            properties.add(Codec.readProperties(m));
            replica[i] = m.getLong();
        }
        double[][] bandwidth = new double[count + 1][count + 1];
        for (double[] row : bandwidth) {
            for (int j = 0; j < row.length; j++) {
                row[j] = m.getDouble();
            }
        }
        return new RemoteRank(rank, first, host, properties, replica, bandwidth, transport, batchLimit);
    }
}
