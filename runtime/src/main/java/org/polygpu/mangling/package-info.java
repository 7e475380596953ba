/**
 * C++ symbol names as g++ and nvcc make them (the Itanium C++ ABI): the fundamental types of NIDL signatures, their
 * pointers and pointers to const, in namespaces, with the ABI's substitutions. Used to find {@code cxx} host
 * functions in shared libraries and {@code cxx} kernels in compiled modules. Plain Java, immutable values.
 */
package org.polygpu.mangling;
