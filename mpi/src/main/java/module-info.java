/** MPI through FFM: a binding one-to-one with the C API, for the cluster layer; needs no other polygpu module. */
module org.polygpu.mpi {
    exports org.polygpu.mpi;
}
