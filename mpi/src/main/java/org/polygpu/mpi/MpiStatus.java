package org.polygpu.mpi;

/**
 * What MPI says of a received or probed message.
 *
 * @param source the sending rank
 * @param tag    the message's tag
 * @param bytes  the message's length in bytes
 */
public record MpiStatus(int source, int tag, long bytes) {
    public MpiStatus {
        if (source < 0 || tag < 0 || bytes < 0) {
            throw new IllegalArgumentException("invalid message status: source " + source + ", tag " + tag
                    + ", " + bytes + " bytes");
        }
    }
}
