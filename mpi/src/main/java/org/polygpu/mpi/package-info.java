/**
 * MPI through the Foreign Function and Memory API, written by hand over Open MPI's {@code libmpi.so.40}, in the
 * three layers of the CUDA binding: a raw package-private interface one-to-one with the C functions
 * ({@link org.polygpu.mpi.MpiApi}), its FFM implementation ({@link org.polygpu.mpi.FfmMpiApi}), and a façade
 * ({@link org.polygpu.mpi.Mpi}) that turns return codes into {@link org.polygpu.mpi.MpiException}s carrying the
 * function, the MPI error class and MPI's own message. Buffers are passed as memory segments, without copies.
 * A missing MPI library is an expected state, reported by {@link org.polygpu.mpi.Mpi#available()}.
 */
package org.polygpu.mpi;
