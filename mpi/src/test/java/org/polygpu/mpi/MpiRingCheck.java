package org.polygpu.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/**
 * A program for {@code mpirun} (run by {@link MpiJobTest}): every rank sends 1 MiB stamped with its rank to the
 * next rank with a non-blocking send, finds the message from the previous rank with a probe, receives and checks
 * it, meets the others at a barrier, and prints one line.
 */
public final class MpiRingCheck {
    static final int BYTES = 1 << 20;
    static final int TAG = 3;

    private MpiRingCheck() {
    }

    public static void main(String[] args) {
        try (Mpi mpi = Mpi.init(Mpi.ThreadLevel.MULTIPLE); Arena arena = Arena.ofConfined()) {
            int next = (mpi.rank() + 1) % mpi.size();
            int previous = (mpi.rank() + mpi.size() - 1) % mpi.size();
            MemorySegment out = arena.allocate(BYTES).fill((byte) mpi.rank());
            MemorySegment in = arena.allocate(BYTES);
            MpiRequest sending = mpi.isend(out, next, TAG);
            Optional<MpiStatus> probed = Optional.empty();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (probed.isEmpty() && System.nanoTime() < deadline) {
                probed = mpi.iprobe(previous, TAG);
            }
            MpiStatus received = mpi.recv(in, previous, TAG);
            sending.await();
            long wrong = 0;
            for (long i = 0; i < BYTES; i++) {
                if (in.get(ValueLayout.JAVA_BYTE, i) != (byte) previous) {
                    wrong++;
                }
            }
            mpi.barrier();
            System.out.println("rank " + mpi.rank() + " of " + mpi.size() + ": probed "
                    + probed.map(MpiStatus::bytes).orElse(-1L) + " bytes, received " + received.bytes()
                    + " bytes of rank " + received.source() + " with tag " + received.tag() + ", " + wrong
                    + " wrong, host named " + !mpi.processorName().isBlank());
        }
    }
}
