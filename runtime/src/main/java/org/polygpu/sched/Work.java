package org.polygpu.sched;

import org.polygpu.array.ArrayAccess;
import org.polygpu.backend.Backend;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/**
 * What a computation does: a kernel launch, a device copy or a library routine (BLAS), enqueued on a stream, or a host
 * access, a host function call or the release of an array, done by the host.
 *
 * <p>Device work enqueues itself on the device and stream the scheduler chose, with arrays replaced by their
 * replicas there; host-side work has no stream, so its {@link #enqueue} refuses. The variants are immutable values:
 * the scheduling state of the work lives in its {@link Computation}.
 */
sealed interface Work permits KernelLaunch, DeviceCopy, HostAccess, Release, HostCall, LibraryLaunch {
    Computation.Kind kind();

    /** The kernel name, or a short description of a copy, host access or release. */
    String name();

    /** The arrays used, each once, with how they are used; a new array on each call. */
    ArrayAccess[] accesses();

    /**
     * Enqueues the work on {@code stream} of {@code device}; the replicas it uses there are allocated and coherent.
     *
     * @throws IllegalStateException for host-side work, which is never enqueued
     */
    void enqueue(Backend backend, int device, StreamHandle stream, OperationLabel label);
}
