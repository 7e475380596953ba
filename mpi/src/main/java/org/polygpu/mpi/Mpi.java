package org.polygpu.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * This process's MPI, initialised: rank, size, point-to-point messages of bytes, probes, a barrier and abort, with
 * every return code checked ({@link MpiException} names the function, the error class and MPI's text). Errors on
 * {@code MPI_COMM_WORLD} return instead of aborting the job ({@code MPI_ERRORS_RETURN}), so that a failure reaches
 * the caller as an exception.
 *
 * <p>Buffers are native memory segments passed without copies; one message carries at most
 * {@value #MAX_MESSAGE_BYTES} bytes (MPI counts are {@code int}), larger payloads are the caller's to split.
 *
 * <p>MPI is initialised at most once per process and cannot be initialised again after {@link #close()}
 * ({@code MPI_Finalize}). Thread-safety is MPI's: {@link #threadLevel()} says what the library granted.
 */
public final class Mpi implements AutoCloseable {
    /** {@code MPI_ANY_SOURCE} in Open MPI. */
    public static final int ANY_SOURCE = -1;
    /** {@code MPI_ANY_TAG} in Open MPI. */
    public static final int ANY_TAG = -1;
    /** The most bytes one message carries: MPI's {@code int} count of {@code MPI_BYTE}. */
    public static final int MAX_MESSAGE_BYTES = Integer.MAX_VALUE;

    /** MPI's thread support levels ({@code MPI_THREAD_SINGLE} … {@code MPI_THREAD_MULTIPLE}), in their order. */
    public enum ThreadLevel { SINGLE, FUNNELED, SERIALIZED, MULTIPLE }

    private final MpiApi api;
    private final int rank;
    private final int size;
    private final ThreadLevel threadLevel;
    private boolean closed;

    private Mpi(MpiApi api, ThreadLevel required) {
        this.api = api;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ValueLayout.JAVA_INT);
            check("MPI_Initialized", api.initialized(out));
            if (out.get(ValueLayout.JAVA_INT, 0) != 0) {
                throw new IllegalStateException("MPI is already initialised in this process");
            }
            check("MPI_Init_thread", api.initThread(required.ordinal(), out));
            threadLevel = ThreadLevel.values()[Math.clamp(out.get(ValueLayout.JAVA_INT, 0), 0, 3)];
            check("MPI_Comm_set_errhandler", api.commSetErrhandler(api.commWorld(), api.errorsReturn()));
            check("MPI_Comm_rank", api.commRank(api.commWorld(), out));
            rank = out.get(ValueLayout.JAVA_INT, 0);
            check("MPI_Comm_size", api.commSize(api.commWorld(), out));
            size = out.get(ValueLayout.JAVA_INT, 0);
        }
    }

    /**
     * Loads Open MPI and initialises it, asking for {@code required} thread support (the library may grant less:
     * {@link #threadLevel()}). Started by {@code mpirun}, the process joins its job; started alone, it is a job of
     * one rank.
     *
     * @throws MpiException          when no usable MPI library is installed, or initialisation fails
     * @throws IllegalStateException when MPI was already initialised in this process
     */
    public static Mpi init(ThreadLevel required) {
        return new Mpi(FfmMpiApi.open(), required);
    }

    /** {@link #init} over another implementation of the C API (tests). */
    static Mpi init(MpiApi api, ThreadLevel required) {
        return new Mpi(api, required);
    }

    /** Why MPI cannot be used here (no library, or not Open MPI's), or empty when it can. */
    public static Optional<String> unavailableReason() {
        try {
            FfmMpiApi.open();
            return Optional.empty();
        } catch (MpiException e) {
            return Optional.of(e.getMessage());
        }
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public ThreadLevel threadLevel() {
        return threadLevel;
    }

    /** This rank's host, as MPI names it ({@code MPI_Get_processor_name}). */
    public String processorName() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment name = call.allocate(256); // MPI_MAX_PROCESSOR_NAME in Open MPI
            MemorySegment length = call.allocate(ValueLayout.JAVA_INT);
            check("MPI_Get_processor_name", api.getProcessorName(name, length));
            byte[] bytes = name.asSlice(0, Math.clamp(length.get(ValueLayout.JAVA_INT, 0), 0, 256))
                    .toArray(ValueLayout.JAVA_BYTE);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /** Whether the library can send from and receive into device memory (Open MPI built with CUDA support). */
    public boolean cudaAware() {
        return api.queryCudaSupport() == 1;
    }

    /** Sends all of {@code buffer} to {@code dest} with {@code tag}, returning when the buffer may be reused. */
    public void send(MemorySegment buffer, int dest, int tag) {
        checkOpen();
        check("MPI_Send to rank " + dest, api.send(buffer, count(buffer), api.byteType(), dest, tag,
                api.commWorld()));
    }

    /**
     * Receives one message from {@code source} ({@link #ANY_SOURCE}) with {@code tag} ({@link #ANY_TAG}) into
     * {@code buffer}, which must be at least as long as the message (MPI_ERR_TRUNCATE otherwise).
     */
    public MpiStatus recv(MemorySegment buffer, int source, int tag) {
        checkOpen();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment st = call.allocate(MpiApi.STATUS_BYTES, 8);
            check("MPI_Recv from rank " + source, api.recv(buffer, count(buffer), api.byteType(), source, tag,
                    api.commWorld(), st));
            return status(st, true);
        }
    }

    /** Starts sending {@code buffer} to {@code dest}; the buffer must stay untouched until the request completes. */
    public MpiRequest isend(MemorySegment buffer, int dest, int tag) {
        checkOpen();
        MpiRequest request = new MpiRequest(this, "MPI_Isend to rank " + dest, false);
        check("MPI_Isend to rank " + dest, api.isend(buffer, count(buffer), api.byteType(), dest, tag,
                api.commWorld(), request.handle()));
        return request;
    }

    /** Starts receiving one message into {@code buffer}; read it only once the request has completed. */
    public MpiRequest irecv(MemorySegment buffer, int source, int tag) {
        checkOpen();
        MpiRequest request = new MpiRequest(this, "MPI_Irecv from rank " + source, true);
        check("MPI_Irecv from rank " + source, api.irecv(buffer, count(buffer), api.byteType(), source, tag,
                api.commWorld(), request.handle()));
        return request;
    }

    /** The next message from {@code source} with {@code tag} that has arrived, without receiving it; or empty. */
    public Optional<MpiStatus> iprobe(int source, int tag) {
        checkOpen();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment flag = call.allocate(ValueLayout.JAVA_INT);
            MemorySegment st = call.allocate(MpiApi.STATUS_BYTES, 8);
            check("MPI_Iprobe", api.iprobe(source, tag, api.commWorld(), flag, st));
            return flag.get(ValueLayout.JAVA_INT, 0) == 0 ? Optional.empty() : Optional.of(status(st, true));
        }
    }

    /** Waits until every rank has called it. */
    public void barrier() {
        checkOpen();
        check("MPI_Barrier", api.barrier(api.commWorld()));
    }

    /** Seconds on MPI's clock ({@code MPI_Wtime}). */
    public double wtime() {
        return api.wtime();
    }

    /** Ends every rank of the job with {@code code} ({@code MPI_Abort}); normally does not return. */
    public void abort(int code) {
        check("MPI_Abort", api.abort(api.commWorld(), code));
    }

    /** Finalises MPI ({@code MPI_Finalize}); idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            check("MPI_Finalize", api.finalizeMpi());
        }
    }

    MpiApi api() {
        return api;
    }

    /** Reads a status; the length is asked of MPI only for received messages (a send's status has none). */
    MpiStatus status(MemorySegment st, boolean received) {
        long bytes = 0;
        if (received) {
            try (Arena call = Arena.ofConfined()) {
                MemorySegment count = call.allocate(ValueLayout.JAVA_INT);
                check("MPI_Get_count", api.getCount(st, api.byteType(), count));
                bytes = count.get(ValueLayout.JAVA_INT, 0);
            }
        }
        return new MpiStatus(Math.max(0, st.get(ValueLayout.JAVA_INT, MpiApi.STATUS_SOURCE)),
                Math.max(0, st.get(ValueLayout.JAVA_INT, MpiApi.STATUS_TAG)), bytes);
    }

    /** Throws the failure {@code result} stands for, with its error class and MPI's text; nothing for success. */
    void check(String function, int result) {
        if (result == 0) {
            return;
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment cls = call.allocate(ValueLayout.JAVA_INT);
            int errorClass = api.errorClass(result, cls) == 0 ? cls.get(ValueLayout.JAVA_INT, 0) : result;
            MemorySegment text = call.allocate(256); // MPI_MAX_ERROR_STRING in Open MPI
            MemorySegment length = call.allocate(ValueLayout.JAVA_INT);
            String message = "";
            if (api.errorString(result, text, length) == 0) {
                int n = Math.clamp(length.get(ValueLayout.JAVA_INT, 0), 0, 256);
                message = new String(text.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
            }
            throw MpiException.callFailed(function, errorClass, message);
        }
    }

    private static int count(MemorySegment buffer) {
        if (!buffer.isNative()) {
            throw new IllegalArgumentException("MPI sends and receives native memory; got a heap segment of "
                    + buffer.byteSize() + " bytes");
        }
        if (buffer.byteSize() > MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException("one MPI message carries at most " + MAX_MESSAGE_BYTES
                    + " bytes; got a buffer of " + buffer.byteSize() + " bytes (send it in parts)");
        }
        return (int) buffer.byteSize();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("MPI has been finalised in this process");
        }
    }

    @Override
    public String toString() {
        return "MPI rank " + rank + " of " + size + " (thread level " + threadLevel + ")";
    }
}
