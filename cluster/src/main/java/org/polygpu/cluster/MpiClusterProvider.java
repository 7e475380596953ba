package org.polygpu.cluster;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.ClusterOptions;
import org.polygpu.backend.ClusterProvider;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.config.MemoryModel;

/** {@code Cluster=mpi}: the ranks of the MPI job {@code mpirun} started; rank 0 runs the program. */
public final class MpiClusterProvider implements ClusterProvider {
    @Override
    public String name() {
        return "mpi";
    }

    @Override
    public void join(String backend, BackendOptions options, ClusterOptions cluster) {
        if (options.memoryModel() == MemoryModel.MANAGED) {
            throw new IllegalArgumentException("MemoryModel=managed cannot span an MPI job (Cluster=mpi): managed "
                    + "memory is one address space of one process; use MemoryModel=explicit");
        }
        Session session = Session.join(cluster.timeout());
        if (session.rank() != 0) {
            new Worker(session, backend, options).serve();
        }
    }

    @Override
    public OpenedBackend open(OpenedBackend local, ClusterOptions cluster) {
        Session session = Session.join(cluster.timeout());
        if (session.rank() != 0) {
            throw new BackendException("only rank 0 of an MPI job runs the program under Cluster=mpi");
        }
        return ClusterOpening.open(session, local, cluster.cudaAware());
    }
}
