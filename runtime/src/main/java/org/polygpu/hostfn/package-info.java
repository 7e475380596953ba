/**
 * Host functions of shared libraries, called through FFM: {@link org.polygpu.hostfn.NativeLibrary} opens a library
 * and finds its symbols, {@link org.polygpu.hostfn.HostFunction} calls one with a signature of scalars and pointers.
 * Scheduling such calls against the arrays they use is {@code org.polygpu.sched}'s part.
 */
package org.polygpu.hostfn;
