/** The CUDA backend over the driver API (FFM); reached only through the backend SPI, so it exports nothing. */
module org.polygpu.cuda {
    requires org.polygpu.runtime;

    provides org.polygpu.backend.BackendProvider with org.polygpu.cuda.CudaBackendProvider;
}
