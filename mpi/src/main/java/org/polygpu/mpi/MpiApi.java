package org.polygpu.mpi;

import java.lang.foreign.MemorySegment;

/**
 * The MPI functions polygpu calls, one-to-one with the C API: each returns the C function's {@code int} result and
 * takes handles and out-parameters as memory segments. The façade {@link Mpi} checks the results; tests substitute
 * a fake.
 *
 * <p>Handles ({@code MPI_Comm}, {@code MPI_Datatype}, {@code MPI_Errhandler}, {@code MPI_Request}) follow Open MPI's
 * ABI: they are addresses of the library's objects, so predefined ones are found by symbol lookup
 * ({@link #commWorld()}, {@link #byteType()}, {@link #errorsReturn()}). {@code MPI_Status} is Open MPI's structure
 * of {@value #STATUS_BYTES} bytes whose first three {@code int}s are the source, the tag and the error.
 */
interface MpiApi {
    /** {@code sizeof(MPI_Status)} in Open MPI: three public ints, {@code _cancelled} and {@code size_t _ucount}. */
    int STATUS_BYTES = 24;
    /** Offset of {@code MPI_SOURCE} in {@code MPI_Status}. */
    int STATUS_SOURCE = 0;
    /** Offset of {@code MPI_TAG} in {@code MPI_Status}. */
    int STATUS_TAG = 4;
    /** Offset of {@code MPI_ERROR} in {@code MPI_Status}. */
    int STATUS_ERROR = 8;
    /** {@code sizeof(MPI_Request)}: a pointer. */
    int REQUEST_BYTES = 8;

    /** {@code MPI_Init_thread(NULL, NULL, required, provided)}. */
    int initThread(int required, MemorySegment providedOut);

    int initialized(MemorySegment flagOut);

    int finalized(MemorySegment flagOut);

    /** {@code MPI_Finalize()}. */
    int finalizeMpi();

    int commRank(MemorySegment comm, MemorySegment rankOut);

    int commSize(MemorySegment comm, MemorySegment sizeOut);

    int commSetErrhandler(MemorySegment comm, MemorySegment errhandler);

    int getProcessorName(MemorySegment name, MemorySegment lengthOut);

    int send(MemorySegment buffer, int count, MemorySegment datatype, int dest, int tag, MemorySegment comm);

    int recv(MemorySegment buffer, int count, MemorySegment datatype, int source, int tag, MemorySegment comm,
             MemorySegment status);

    int isend(MemorySegment buffer, int count, MemorySegment datatype, int dest, int tag, MemorySegment comm,
              MemorySegment requestOut);

    int irecv(MemorySegment buffer, int count, MemorySegment datatype, int source, int tag, MemorySegment comm,
              MemorySegment requestOut);

    int test(MemorySegment request, MemorySegment flagOut, MemorySegment status);

    /** {@code MPI_Wait(request, status)}. */
    int await(MemorySegment request, MemorySegment status);

    int cancel(MemorySegment request);

    int requestFree(MemorySegment request);

    int iprobe(int source, int tag, MemorySegment comm, MemorySegment flagOut, MemorySegment status);

    int getCount(MemorySegment status, MemorySegment datatype, MemorySegment countOut);

    int barrier(MemorySegment comm);

    int abort(MemorySegment comm, int errorCode);

    int errorString(int errorCode, MemorySegment text, MemorySegment lengthOut);

    int errorClass(int errorCode, MemorySegment classOut);

    double wtime();

    /**
     * Open MPI's {@code MPIX_Query_cuda_support()}: 1 when the library can send from and receive into device memory,
     * 0 when not, -1 when the library does not export the function (built without its CUDA extension).
     */
    int queryCudaSupport();

    /** {@code MPI_COMM_WORLD}. */
    MemorySegment commWorld();

    /** {@code MPI_BYTE}. */
    MemorySegment byteType();

    /** {@code MPI_ERRORS_RETURN}. */
    MemorySegment errorsReturn();
}
