package org.polygpu.backend;

/**
 * Spreads a backend over the processes of a parallel job (an MPI job started by {@code mpirun}): one process, the
 * host, runs the program and schedules over every process's devices; the others serve it. Registered under
 * {@code META-INF/services} and found by {@link Clusters} from the {@code Cluster} option, so that the runtime
 * depends on no transport.
 */
public interface ClusterProvider {
    /** The {@code Cluster} option value that selects this provider. */
    String name();

    /**
     * Joins the job when a context starts, on every process. On the host's process it returns at once. On any other
     * process it serves the host with a backend opened as {@code backend} and {@code options} say, and ends the
     * process when the host's program ends: it never returns there.
     *
     * @throws BackendException when the job cannot be joined (no transport library, not started as a job)
     */
    void join(String backend, BackendOptions options, ClusterOptions cluster);

    /**
     * The backend of the whole job, on the host's process: {@code local}'s devices first, then every other process's,
     * in the order of their ranks, behind the links of the returned bandwidth matrix.
     *
     * @throws BackendException when a process does not answer in time, or its devices cannot be opened
     */
    OpenedBackend open(OpenedBackend local, ClusterOptions cluster);
}
