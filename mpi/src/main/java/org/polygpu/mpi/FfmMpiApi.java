package org.polygpu.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@link MpiApi} over Open MPI's {@code libmpi.so.40} through FFM downcall handles, all bound when the library is
 * opened (every MPI-3 library exports them) except {@code MPIX_Query_cuda_support}, which only a library built with
 * Open MPI's CUDA extension has. The library stays loaded for the life of the JVM (global arena). Thread-safe as far
 * as the handles go; whether MPI itself may be called from several threads is the thread level
 * {@link Mpi#threadLevel()} reports.
 */
final class FfmMpiApi implements MpiApi {
    /** Open MPI's soname (Open MPI 3 and 4; the Debian and Ubuntu packages install it). */
    static final String LIBRARY = "libmpi.so.40";

    private static final Linker LINKER = Linker.nativeLinker();

    private final Map<MpiSymbol, MethodHandle> handles = new EnumMap<>(MpiSymbol.class);
    private final MemorySegment commWorld;
    private final MemorySegment byteType;
    private final MemorySegment errorsReturn;

    private FfmMpiApi(SymbolLookup lookup) {
        for (MpiSymbol symbol : MpiSymbol.values()) {
            lookup.find(symbol.name()).ifPresent(a -> handles.put(symbol, LINKER.downcallHandle(a,
                    symbol.descriptor())));
        }
        for (MpiSymbol symbol : MpiSymbol.values()) {
            if (symbol != MpiSymbol.MPIX_Query_cuda_support && !handles.containsKey(symbol)) {
                throw MpiException.unavailable("the MPI library (" + LIBRARY + ") has no function " + symbol.name()
                        + "; polygpu needs Open MPI 3 or newer", null);
            }
        }
        commWorld = object(lookup, "ompi_mpi_comm_world");
        byteType = object(lookup, "ompi_mpi_byte");
        errorsReturn = object(lookup, "ompi_mpi_errors_return");
    }

    /** A predefined handle of Open MPI's ABI: the address of one of the library's global objects. */
    private static MemorySegment object(SymbolLookup lookup, String name) {
        return lookup.find(name).orElseThrow(() -> MpiException.unavailable("the MPI library (" + LIBRARY
                + ") has no object " + name + ": polygpu supports Open MPI's ABI, where MPI handles are addresses"
                + " (MPICH and its derivatives use integer handles)", null));
    }

    /**
     * Loads the library.
     *
     * @throws MpiException when {@code libmpi.so.40} cannot be loaded or is not Open MPI's
     */
    static FfmMpiApi open() {
        try {
            return new FfmMpiApi(SymbolLookup.libraryLookup(LIBRARY, Arena.global()));
        } catch (IllegalArgumentException e) {
            throw MpiException.unavailable("no MPI library (" + LIBRARY + " not found; install Open MPI, e.g. the"
                    + " packages openmpi-bin and libopenmpi-dev)", e);
        }
    }

    private MethodHandle h(MpiSymbol symbol) {
        return handles.get(symbol);
    }

    @Override
    public int initThread(int required, MemorySegment providedOut) {
        try {
            return (int) h(MpiSymbol.MPI_Init_thread).invokeExact(MemorySegment.NULL, MemorySegment.NULL, required,
                    providedOut);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int initialized(MemorySegment flagOut) {
        return callA(MpiSymbol.MPI_Initialized, flagOut);
    }

    @Override
    public int finalized(MemorySegment flagOut) {
        return callA(MpiSymbol.MPI_Finalized, flagOut);
    }

    @Override
    public int finalizeMpi() {
        try {
            return (int) h(MpiSymbol.MPI_Finalize).invokeExact();
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int commRank(MemorySegment comm, MemorySegment rankOut) {
        return callAA(MpiSymbol.MPI_Comm_rank, comm, rankOut);
    }

    @Override
    public int commSize(MemorySegment comm, MemorySegment sizeOut) {
        return callAA(MpiSymbol.MPI_Comm_size, comm, sizeOut);
    }

    @Override
    public int commSetErrhandler(MemorySegment comm, MemorySegment errhandler) {
        return callAA(MpiSymbol.MPI_Comm_set_errhandler, comm, errhandler);
    }

    @Override
    public int getProcessorName(MemorySegment name, MemorySegment lengthOut) {
        return callAA(MpiSymbol.MPI_Get_processor_name, name, lengthOut);
    }

    @Override
    public int send(MemorySegment buffer, int count, MemorySegment datatype, int dest, int tag, MemorySegment comm) {
        try {
            return (int) h(MpiSymbol.MPI_Send).invokeExact(buffer, count, datatype, dest, tag, comm);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int recv(MemorySegment buffer, int count, MemorySegment datatype, int source, int tag, MemorySegment comm,
                    MemorySegment status) {
        return transfer(MpiSymbol.MPI_Recv, buffer, count, datatype, source, tag, comm, status);
    }

    @Override
    public int isend(MemorySegment buffer, int count, MemorySegment datatype, int dest, int tag, MemorySegment comm,
                     MemorySegment requestOut) {
        return transfer(MpiSymbol.MPI_Isend, buffer, count, datatype, dest, tag, comm, requestOut);
    }

    @Override
    public int irecv(MemorySegment buffer, int count, MemorySegment datatype, int source, int tag, MemorySegment comm,
                     MemorySegment requestOut) {
        return transfer(MpiSymbol.MPI_Irecv, buffer, count, datatype, source, tag, comm, requestOut);
    }

    @Override
    public int test(MemorySegment request, MemorySegment flagOut, MemorySegment status) {
        try {
            return (int) h(MpiSymbol.MPI_Test).invokeExact(request, flagOut, status);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int await(MemorySegment request, MemorySegment status) {
        return callAA(MpiSymbol.MPI_Wait, request, status);
    }

    @Override
    public int cancel(MemorySegment request) {
        return callA(MpiSymbol.MPI_Cancel, request);
    }

    @Override
    public int requestFree(MemorySegment request) {
        return callA(MpiSymbol.MPI_Request_free, request);
    }

    @Override
    public int iprobe(int source, int tag, MemorySegment comm, MemorySegment flagOut, MemorySegment status) {
        try {
            return (int) h(MpiSymbol.MPI_Iprobe).invokeExact(source, tag, comm, flagOut, status);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int getCount(MemorySegment status, MemorySegment datatype, MemorySegment countOut) {
        try {
            return (int) h(MpiSymbol.MPI_Get_count).invokeExact(status, datatype, countOut);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int barrier(MemorySegment comm) {
        return callA(MpiSymbol.MPI_Barrier, comm);
    }

    @Override
    public int abort(MemorySegment comm, int errorCode) {
        try {
            return (int) h(MpiSymbol.MPI_Abort).invokeExact(comm, errorCode);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int errorString(int errorCode, MemorySegment text, MemorySegment lengthOut) {
        try {
            return (int) h(MpiSymbol.MPI_Error_string).invokeExact(errorCode, text, lengthOut);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int errorClass(int errorCode, MemorySegment classOut) {
        try {
            return (int) h(MpiSymbol.MPI_Error_class).invokeExact(errorCode, classOut);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public double wtime() {
        try {
            return (double) h(MpiSymbol.MPI_Wtime).invokeExact();
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public int queryCudaSupport() {
        MethodHandle query = h(MpiSymbol.MPIX_Query_cuda_support);
        if (query == null) {
            return -1;
        }
        try {
            return (int) query.invokeExact();
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    @Override
    public MemorySegment commWorld() {
        return commWorld;
    }

    @Override
    public MemorySegment byteType() {
        return byteType;
    }

    @Override
    public MemorySegment errorsReturn() {
        return errorsReturn;
    }

    private int callA(MpiSymbol symbol, MemorySegment a) {
        try {
            return (int) h(symbol).invokeExact(a);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    private int callAA(MpiSymbol symbol, MemorySegment a, MemorySegment b) {
        try {
            return (int) h(symbol).invokeExact(a, b);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    /** The shape of {@code MPI_Recv}, {@code MPI_Isend} and {@code MPI_Irecv}. */
    private int transfer(MpiSymbol symbol, MemorySegment buffer, int count, MemorySegment datatype, int peer, int tag,
                         MemorySegment comm, MemorySegment last) {
        try {
            return (int) h(symbol).invokeExact(buffer, count, datatype, peer, tag, comm, last);
        } catch (Throwable t) {
            throw unexpected(t);
        }
    }

    /** A downcall declares {@code Throwable} but only rethrows what the invocation machinery raises. */
    private static RuntimeException unexpected(Throwable t) {
        if (t instanceof RuntimeException runtime) {
            return runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        return new IllegalStateException("unexpected exception from an MPI downcall", t);
    }
}
