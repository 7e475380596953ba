package org.polygpu.mpi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;

/**
 * The MPI functions {@link FfmMpiApi} binds, by their exported C names, each with its C signature: the {@code int}
 * result, handles and pointers as addresses, counts, ranks and tags as {@code int}.
 */
enum MpiSymbol {
    MPI_Init_thread(ADDRESS, ADDRESS, JAVA_INT, ADDRESS),
    MPI_Initialized(ADDRESS),
    MPI_Finalized(ADDRESS),
    MPI_Finalize(),
    MPI_Comm_rank(ADDRESS, ADDRESS),
    MPI_Comm_size(ADDRESS, ADDRESS),
    MPI_Comm_set_errhandler(ADDRESS, ADDRESS),
    MPI_Get_processor_name(ADDRESS, ADDRESS),
    MPI_Send(ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS),
    MPI_Recv(ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS),
    MPI_Isend(ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS),
    MPI_Irecv(ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS),
    MPI_Test(ADDRESS, ADDRESS, ADDRESS),
    MPI_Wait(ADDRESS, ADDRESS),
    MPI_Cancel(ADDRESS),
    MPI_Request_free(ADDRESS),
    MPI_Iprobe(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS),
    MPI_Get_count(ADDRESS, ADDRESS, ADDRESS),
    MPI_Barrier(ADDRESS),
    MPI_Abort(ADDRESS, JAVA_INT),
    MPI_Error_string(JAVA_INT, ADDRESS, ADDRESS),
    MPI_Error_class(JAVA_INT, ADDRESS),
    MPI_Wtime(JAVA_DOUBLE, true),
    MPIX_Query_cuda_support(JAVA_INT, true);

    private final FunctionDescriptor descriptor;

    MpiSymbol(MemoryLayout... parameters) {
        this.descriptor = FunctionDescriptor.of(JAVA_INT, parameters);
    }

    /** A function without parameters returning {@code result}; {@code noArguments} only tells the constructors apart. */
    MpiSymbol(MemoryLayout result, boolean noArguments) {
        this.descriptor = FunctionDescriptor.of(result);
    }

    FunctionDescriptor descriptor() {
        return descriptor;
    }
}
