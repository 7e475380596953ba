package org.polygpu.cluster;

/**
 * The kinds of control messages ranks exchange; every message starts with one. Requests that need an answer (calls)
 * carry a call id after their kind and are answered by one {@link #REPLY}; batched commands are answered by nothing.
 */
enum Op {
    // The transport's own: answer to a call [id, failure text or "", payload]; liveness probes; end of the job.
    REPLY, PING, PONG, SHUTDOWN,
    /** Rank 0's asynchronous commands to one worker, in order: [command...], each its kind, then its fields. */
    BATCH,
    // Batched commands (no answer).
    STREAM_CREATE, STREAM_DESTROY, EVENT_CREATE, EVENT_DESTROY, RECORD, WAIT, LAUNCH, LAUNCH_LIBRARY, COPY_FROM_HOST,
    COPY_TO_HOST, COPY_LOCAL, COPY_FROM_RANK, TIMELINE_RECORD,
    // Calls from rank 0, served in order with the batches.
    OPEN, CLOSE, ALLOCATE, FREE, FREE_MEMORY, LOAD_MODULE, FUNCTION, PTX, WRITE_SYMBOL, QUERY, ELAPSED, TAKE_FAULT,
    TIMELINE, SYNC_ALL,
    // Calls any rank makes of another, served at once by a pool: wait for an event; send a buffer's bytes.
    SYNC_EVENT, PULL_BUFFER, PULL_HOST
}
