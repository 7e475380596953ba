/**
 * {@code Cluster=mpi}: one backend over the devices of every rank of an MPI job. On rank 0, {@link
 * org.polygpu.cluster.ClusterBackend} composes rank 0's own backend with a {@link org.polygpu.cluster.RemoteRank}
 * per other rank, so that the scheduler sees one backend; the other ranks run a {@link org.polygpu.cluster.Worker}
 * that serves it. Messages are MPI's ({@link org.polygpu.cluster.Transport}, over org.polygpu.mpi): batched commands,
 * calls with bounded waits, data in pipelined chunks; on emulated ranks they carry virtual times
 * ({@link org.polygpu.cluster.RankClock}). Entry point: {@link org.polygpu.cluster.MpiClusterProvider},
 * found by the runtime's {@code ClusterProvider} SPI. docs/clusters.md describes the model for users.
 */
package org.polygpu.cluster;
