/**
 * BLAS functions as cuBLAS names them ({@code cublasSaxpy}, {@code cublasZgemm}, ...): their parameters with the
 * access modes the scheduler needs, their work for a roofline, and a Java implementation (column-major, strides,
 * complex numbers stored as interleaved real and imaginary parts) that the emulator runs and that validates cuBLAS.
 * Scalars such as {@code alpha} and results such as a dot product live in device arrays, as with cuBLAS's device
 * pointer mode. Immutable values and stateless code.
 */
package org.polygpu.blas;
