package org.polygpu.cluster;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.backend.Backend.DeviceAddressing;
import org.polygpu.backend.BackendException;
import org.polygpu.config.ClusterCudaAware;

/**
 * Which copies between ranks take the direct path: sent from and received into device memory
 * ({@link org.polygpu.backend.Backend#devicePointer}) in the transport's chunks, instead of staged through pinned
 * host memory. Each rank decides at start whether it can ({@link #capable}); rank 0 gathers every rank's answer when
 * the job's backend opens and takes the direct path for a copy only when every rank whose device memory the copy
 * touches can: both ranks of a copy between two ranks' devices, the device's rank for a copy between a device and rank
 * 0's host memory (host memory is any MPI library's). Immutable.
 */
final class DirectPath {
    private final ClusterCudaAware mode;
    private final boolean[] capable;
    private final boolean[] mpiCudaAware;

    /**
     * @param capable      per rank, whether it sends and receives from device memory
     * @param mpiCudaAware per rank, whether its MPI library says it is CUDA-aware
     */
    DirectPath(ClusterCudaAware mode, boolean[] capable, boolean[] mpiCudaAware) {
        if (capable.length != mpiCudaAware.length) {
            throw new IllegalArgumentException(capable.length + " ranks' capabilities but " + mpiCudaAware.length
                    + " ranks' libraries");
        }
        this.mode = mode;
        this.capable = capable.clone();
        this.mpiCudaAware = mpiCudaAware.clone();
    }

    /**
     * Whether {@code rank} takes the direct path: never with {@code off}; with {@code auto}, where its MPI library is
     * CUDA-aware and its backend gives device pointers; with {@code on}, wherever the library can read what the
     * backend's device pointers address (device memory: a CUDA-aware library; host memory: any library).
     *
     * @throws BackendException with {@code on}, when {@code rank} cannot take the direct path, saying why
     */
    static boolean capable(ClusterCudaAware mode, boolean mpiCudaAware, DeviceAddressing addressing, int rank) {
        boolean can = switch (addressing) {
            case NONE -> false;
            case DEVICE_MEMORY -> mpiCudaAware;
            case HOST_MEMORY -> mode == ClusterCudaAware.ON || mpiCudaAware;
        };
        if (mode == ClusterCudaAware.ON && !can) {
            throw new BackendException("ClusterCudaAware=on, but rank " + rank + " cannot copy from device memory: "
                    + (addressing == DeviceAddressing.NONE ? "its backend gives no device pointers"
                    : "its devices are GPUs and its MPI library is not CUDA-aware (MPIX_Query_cuda_support() says "
                    + "no)") + "; use ClusterCudaAware=auto or off, or an Open MPI built with CUDA support");
        }
        return mode != ClusterCudaAware.OFF && can;
    }

    /** Whether a copy between a device of {@code rank} and rank 0's host memory takes the direct path. */
    boolean withHost(int rank) {
        return capable[rank];
    }

    /** Whether a copy between a device of {@code source} and one of {@code destination} takes the direct path. */
    boolean between(int source, int destination) {
        return capable[source] && capable[destination];
    }

    /** For {@code info}: the option, then per rank whether its copies are direct, and where MPI is CUDA-aware. */
    @Override
    public String toString() {
        List<String> ranks = new ArrayList<>();
        List<String> aware = new ArrayList<>();
        for (int r = 0; r < capable.length; r++) {
            ranks.add("rank " + r + (capable[r] ? " direct" : " staged"));
            if (mpiCudaAware[r]) {
                aware.add(Integer.toString(r));
            }
        }
        return "copies between ranks (ClusterCudaAware=" + mode.optionValue() + "): " + String.join(", ", ranks)
                + "; CUDA-aware MPI on ranks: " + (aware.isEmpty() ? "none" : String.join(", ", aware));
    }
}
