/**
 * Scheduling: the execution context that turns launches, copies and host accesses into computations, the stream
 * pool and the assignment of devices and streams (paper Fig. 5), coherence transfers at schedule time, and
 * retirement of finished work by polling events.
 *
 * <p>A {@link org.polygpu.sched.Computation} carries its {@code Work} (a sealed family: kernel launch, device copy,
 * library launch, host access, host function call, release) and owns its lifecycle; the context's parts share one
 * {@code Schedule} (DAG, stream pool, ids, retirement). Entry point: {@link org.polygpu.sched.ExecutionContext};
 * library calls through {@link org.polygpu.sched.LibraryCalls}. Not thread-safe: one thread at a time.
 */
package org.polygpu.sched;
