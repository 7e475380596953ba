package org.polygpu.cluster;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.polygpu.backend.BackendException;
import org.polygpu.mpi.Mpi;
import org.polygpu.mpi.MpiException;

/**
 * This process's membership of the MPI job, made once per process by the first context under {@code Cluster=mpi}:
 * MPI initialised with {@code MPI_THREAD_MULTIPLE} and the {@link Transport}. On rank 0, a shutdown hook ends the job
 * when the program's process exits: it tells every worker to stop and finalises MPI, or, when a worker was found
 * dead or silent, aborts the job ({@code MPI_Abort}), which ends every rank that still runs.
 *
 * <p>Lifecycle: NONE → JOINED ({@link #join}) → ENDED (at exit); thread-safe.
 */
final class Session {
    /** How long rank 0's exit may take to end the job before the process halts. */
    private static final Duration EXIT_WATCHDOG = Duration.ofSeconds(10);

    private static Session current;

    private final Mpi mpi;
    private final Transport transport;
    private final AtomicLong keys = new AtomicLong();
    private volatile boolean failed;

    private Session(Mpi mpi, Duration timeout) {
        this.mpi = mpi;
        this.transport = new Transport(mpi, timeout);
        transport.onSilence(this::failed);
    }

    /**
     * Joins the job (once per process; later calls return the same session).
     *
     * @throws BackendException when MPI cannot be used or grants less than MPI_THREAD_MULTIPLE
     */
    static synchronized Session join(Duration timeout) {
        if (current == null) {
            Mpi mpi;
            try {
                mpi = Mpi.init(Mpi.ThreadLevel.MULTIPLE);
            } catch (MpiException e) {
                throw new BackendException("Cluster=mpi cannot start: " + e.getMessage(), e);
            }
            if (mpi.threadLevel() != Mpi.ThreadLevel.MULTIPLE) {
                mpi.close();
                throw new BackendException("Cluster=mpi needs an MPI library with MPI_THREAD_MULTIPLE; this one "
                        + "grants " + mpi.threadLevel());
            }
            current = new Session(mpi, timeout);
            if (mpi.rank() == 0) {
                Runtime.getRuntime().addShutdownHook(new Thread(current::end, "polygpu-mpi-shutdown"));
            }
        }
        return current;
    }

    int rank() {
        return mpi.rank();
    }

    int size() {
        return mpi.size();
    }

    String host() {
        return mpi.processorName();
    }

    boolean cudaAware() {
        return mpi.cudaAware();
    }

    Transport transport() {
        return transport;
    }

    /** A key no other object of the job has. */
    long nextKey() {
        return keys.incrementAndGet();
    }

    /** Marks the job as broken: at exit it is aborted rather than finalised, which would wait for the dead rank. */
    void failed() {
        failed = true;
    }

    /**
     * Ends the job from rank 0: every worker stops, then MPI is finalised; or the job is aborted after a failure. A
     * watchdog halts the process if finalising waits for ranks that a signal already ended.
     */
    private void end() {
        Thread.ofPlatform().daemon().name("polygpu-mpi-exit-watchdog").start(() -> {
            try {
                Thread.sleep(EXIT_WATCHDOG.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(1);
        });
        if (!failed) {
            try {
                for (int r = 1; r < mpi.size(); r++) {
                    transport.send(r, WireWriter.of(Op.SHUTDOWN));
                }
            } catch (BackendException e) {
                failed = true;
            }
        }
        transport.close();
        if (failed) {
            mpi.abort(1);
        } else {
            mpi.close();
        }
    }

    /** Ends a worker's part: MPI is finalised with the others, and the process exits. */
    void endWorker(int status) {
        transport.close();
        mpi.close();
        System.exit(status);
    }
}
