/**
 * Cluster=mpi: the backend of a whole MPI job on rank 0 (its own devices, then every other rank's) and the worker
 * loop the other ranks run; messages are MPI's, through org.polygpu.mpi.
 */
module org.polygpu.cluster {
    requires org.polygpu.runtime;
    requires org.polygpu.mpi;

    provides org.polygpu.backend.ClusterProvider with org.polygpu.cluster.MpiClusterProvider;
}
