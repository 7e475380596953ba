package org.polygpu.mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An MPI of one scripted rank for the façade's tests: records the calls it receives, answers rank and size, and
 * fails the functions named in {@link #failing} with {@link #failure}, whose class and text it reports.
 */
final class FakeMpiApi implements MpiApi {
    static final MemorySegment WORLD = MemorySegment.ofAddress(0x1000);
    static final MemorySegment BYTE = MemorySegment.ofAddress(0x2000);
    static final MemorySegment ERRORS_RETURN = MemorySegment.ofAddress(0x3000);

    final List<String> calls = new ArrayList<>();
    final List<String> failing = new ArrayList<>();
    int rank = 2;
    int size = 3;
    int failure = 0x10006; // an error code whose class is MPI_ERR_RANK
    int cudaSupport = -1;
    boolean alreadyInitialized;
    int granted = 3;
    int lastCount = -1;

    private int call(String name) {
        calls.add(name);
        return failing.contains(name) ? failure : 0;
    }

    private static void putInt(MemorySegment out, int value) {
        out.reinterpret(4).set(ValueLayout.JAVA_INT, 0, value);
    }

    @Override
    public int initThread(int required, MemorySegment providedOut) {
        putInt(providedOut, Math.min(required, granted));
        return call("MPI_Init_thread");
    }

    @Override
    public int initialized(MemorySegment flagOut) {
        putInt(flagOut, alreadyInitialized ? 1 : 0);
        return call("MPI_Initialized");
    }

    @Override
    public int finalized(MemorySegment flagOut) {
        putInt(flagOut, 0);
        return call("MPI_Finalized");
    }

    @Override
    public int finalizeMpi() {
        return call("MPI_Finalize");
    }

    @Override
    public int commRank(MemorySegment comm, MemorySegment rankOut) {
        putInt(rankOut, rank);
        return call("MPI_Comm_rank");
    }

    @Override
    public int commSize(MemorySegment comm, MemorySegment sizeOut) {
        putInt(sizeOut, size);
        return call("MPI_Comm_size");
    }

    @Override
    public int commSetErrhandler(MemorySegment comm, MemorySegment errhandler) {
        return call("MPI_Comm_set_errhandler " + (comm.equals(WORLD) && errhandler.equals(ERRORS_RETURN)
                ? "world errors-return" : "other"));
    }

    @Override
    public int getProcessorName(MemorySegment name, MemorySegment lengthOut) {
        byte[] host = "node7".getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(MemorySegment.ofArray(host), 0, name, 0, host.length);
        putInt(lengthOut, host.length);
        return call("MPI_Get_processor_name");
    }

    @Override
    public int send(MemorySegment buffer, int count, MemorySegment datatype, int dest, int tag, MemorySegment comm) {
        lastCount = count;
        return call("MPI_Send");
    }

    @Override
    public int recv(MemorySegment buffer, int count, MemorySegment datatype, int source, int tag, MemorySegment comm,
                    MemorySegment status) {
        status.set(ValueLayout.JAVA_INT, STATUS_SOURCE, 1);
        status.set(ValueLayout.JAVA_INT, STATUS_TAG, tag);
        lastCount = count;
        return call("MPI_Recv");
    }

    @Override
    public int isend(MemorySegment buffer, int count, MemorySegment datatype, int dest, int tag, MemorySegment comm,
                     MemorySegment requestOut) {
        return call("MPI_Isend");
    }

    @Override
    public int irecv(MemorySegment buffer, int count, MemorySegment datatype, int source, int tag, MemorySegment comm,
                     MemorySegment requestOut) {
        lastCount = count;
        return call("MPI_Irecv");
    }

    @Override
    public int test(MemorySegment request, MemorySegment flagOut, MemorySegment status) {
        putInt(flagOut, calls.contains("MPI_Test") ? 1 : 0); // done at the second test
        status.set(ValueLayout.JAVA_INT, STATUS_SOURCE, 0);
        status.set(ValueLayout.JAVA_INT, STATUS_TAG, 9);
        return call("MPI_Test");
    }

    @Override
    public int await(MemorySegment request, MemorySegment status) {
        return call("MPI_Wait");
    }

    @Override
    public int cancel(MemorySegment request) {
        return call("MPI_Cancel");
    }

    @Override
    public int requestFree(MemorySegment request) {
        return call("MPI_Request_free");
    }

    @Override
    public int iprobe(int source, int tag, MemorySegment comm, MemorySegment flagOut, MemorySegment status) {
        putInt(flagOut, 0);
        return call("MPI_Iprobe");
    }

    @Override
    public int getCount(MemorySegment status, MemorySegment datatype, MemorySegment countOut) {
        putInt(countOut, lastCount);
        return call("MPI_Get_count");
    }

    @Override
    public int barrier(MemorySegment comm) {
        return call("MPI_Barrier");
    }

    @Override
    public int abort(MemorySegment comm, int errorCode) {
        return call("MPI_Abort");
    }

    @Override
    public int errorString(int errorCode, MemorySegment text, MemorySegment lengthOut) {
        byte[] message = ("MPI_ERR_RANK: invalid rank (code " + errorCode + ")").getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(MemorySegment.ofArray(message), 0, text, 0, message.length);
        putInt(lengthOut, message.length);
        return 0;
    }

    @Override
    public int errorClass(int errorCode, MemorySegment classOut) {
        putInt(classOut, errorCode & 0xffff);
        return 0;
    }

    @Override
    public double wtime() {
        return 12.5;
    }

    @Override
    public int queryCudaSupport() {
        return cudaSupport;
    }

    @Override
    public MemorySegment commWorld() {
        return WORLD;
    }

    @Override
    public MemorySegment byteType() {
        return BYTE;
    }

    @Override
    public MemorySegment errorsReturn() {
        return ERRORS_RETURN;
    }
}
