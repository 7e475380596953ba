package org.polygpu.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The façade over a scripted MPI: what it calls, what it reports, and how failures read. */
class MpiTest {
    private final FakeMpiApi api = new FakeMpiApi();

    @Test
    void initialisationMakesErrorsReturnOnTheWorldAndReadsRankAndSize() {
        Mpi mpi = Mpi.init(api, Mpi.ThreadLevel.MULTIPLE);
        assertEquals(List.of("MPI_Initialized", "MPI_Init_thread", "MPI_Comm_set_errhandler world errors-return",
                "MPI_Comm_rank", "MPI_Comm_size"), api.calls);
        assertEquals(2, mpi.rank());
        assertEquals(3, mpi.size());
        assertEquals(Mpi.ThreadLevel.MULTIPLE, mpi.threadLevel());
        assertEquals("node7", mpi.processorName());
    }

    @Test
    void theThreadLevelIsWhatTheLibraryGranted() {
        api.granted = 1;
        assertEquals(Mpi.ThreadLevel.FUNNELED, Mpi.init(api, Mpi.ThreadLevel.MULTIPLE).threadLevel());
    }

    @Test
    void initialisingTwiceInOneProcessIsRefused() {
        api.alreadyInitialized = true;
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Mpi.init(api, Mpi.ThreadLevel.SERIALIZED));
        assertEquals("MPI is already initialised in this process", e.getMessage());
    }

    @Test
    void aFailedCallNamesTheFunctionThePeerTheErrorClassAndMpisText() {
        Mpi mpi = Mpi.init(api, Mpi.ThreadLevel.MULTIPLE);
        api.failing.add("MPI_Send");
        try (Arena arena = Arena.ofConfined()) {
            MpiException e = assertThrows(MpiException.class, () -> mpi.send(arena.allocate(16), 5, 1));
            assertEquals("MPI_Send to rank 5 failed: MPI_ERR_RANK (6): MPI_ERR_RANK: invalid rank (code 65542)",
                    e.getMessage());
            assertEquals(Optional.of("MPI_Send to rank 5"), e.function());
            assertEquals(6, e.errorClass().getAsInt());
        }
    }

    @Test
    void aMessageIsTheWholeNativeBufferAndItsReceivedLengthIsReported() {
        Mpi mpi = Mpi.init(api, Mpi.ThreadLevel.MULTIPLE);
        try (Arena arena = Arena.ofConfined()) {
            mpi.send(arena.allocate(4096), 1, 7);
            assertEquals(4096, api.lastCount);
            assertEquals(new MpiStatus(1, 7, 64), mpi.recv(arena.allocate(64), Mpi.ANY_SOURCE, 7));
        }
    }

    @Test
    void heapBuffersAndBuffersOverTwoGibibytesAreRefusedNamingTheSize() {
        Mpi mpi = Mpi.init(api, Mpi.ThreadLevel.MULTIPLE);
        IllegalArgumentException heap = assertThrows(IllegalArgumentException.class,
                () -> mpi.send(MemorySegment.ofArray(new byte[8]), 1, 0));
        assertEquals("MPI sends and receives native memory; got a heap segment of 8 bytes", heap.getMessage());
        MemorySegment huge = MemorySegment.ofAddress(0x10000).reinterpret(3L << 30); // never touched by the fake
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> mpi.send(huge, 1, 0));
        assertTrue(big.getMessage().contains("got a buffer of 3221225472 bytes (send it in parts)"),
                big.getMessage());
        assertFalse(api.calls.contains("MPI_Send"));
    }

    @Test
    void aRequestCompletesOnceAndThenAnswersWithoutCallingMpi() {
        Mpi mpi = Mpi.init(api, Mpi.ThreadLevel.MULTIPLE);
        try (Arena arena = Arena.ofConfined()) {
            MpiRequest request = mpi.irecv(arena.allocate(32), 0, 9);
            assertEquals(Optional.empty(), request.test());
            assertEquals(Optional.of(new MpiStatus(0, 9, 32)), request.test());
            assertTrue(request.isComplete());
            long tests = api.calls.stream().filter("MPI_Test"::equals).count();
            assertEquals(new MpiStatus(0, 9, 32), request.await());
            assertEquals(tests, api.calls.stream().filter("MPI_Test"::equals).count());
            assertFalse(api.calls.contains("MPI_Wait"));
        }
    }

    @Test
    void closingFinalisesOnceAndLaterMessagesAreRefused() {
        Mpi mpi = Mpi.init(api, Mpi.ThreadLevel.MULTIPLE);
        mpi.close();
        mpi.close();
        assertEquals(1, api.calls.stream().filter("MPI_Finalize"::equals).count());
        assertThrows(IllegalStateException.class, mpi::barrier);
    }

    @Test
    void cudaAwarenessIsWhatOpenMpisQuerySaysAndNoWhenTheLibraryLacksIt() {
        Mpi mpi = Mpi.init(api, Mpi.ThreadLevel.MULTIPLE);
        assertFalse(mpi.cudaAware());
        api.cudaSupport = 1;
        assertTrue(mpi.cudaAware());
    }

    @Test
    void unknownErrorClassesAreNamedByNumber() {
        assertEquals("MPI_ERR_TRUNCATE", MpiErrorClass.name(15));
        assertEquals("MPI error class 54", MpiErrorClass.name(54));
    }
}
