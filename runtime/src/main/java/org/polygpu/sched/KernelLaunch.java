package org.polygpu.sched;

import java.util.List;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.StreamHandle;

/**
 * A kernel launch with its arguments bound to the signature by {@link LaunchArguments}: a {@link DeviceArray}, or an
 * {@link ArrayOffset} into one, for each pointer parameter and a converted scalar for each other one. An offset counts
 * as its whole array in the accesses; only the backend's launch sees it.
 */
record KernelLaunch(Kernel kernel, LaunchConfig config, Object[] args) implements Work {
    @Override
    public Computation.Kind kind() {
        return Computation.Kind.KERNEL;
    }

    @Override
    public String name() {
        return kernel.name();
    }

    /** The array arguments with the access modes of their parameters, in parameter order. */
    @Override
    public ArrayAccess[] accesses() {
        ArrayAccess[] out = new ArrayAccess[kernel.arrayParameterCount()];
        int n = 0;
        List<Parameter> params = kernel.parameters();
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof DeviceArray a) {
                out[n++] = new ArrayAccess(a, params.get(i).access());
            } else if (args[i] instanceof ArrayOffset o) {
                out[n++] = new ArrayAccess(o.array(), params.get(i).access());
            }
        }
        return out;
    }

    /**
     * Launches the kernel's function on {@code device} with each array replaced by its replica there, telling the
     * backend which pointers are read-only (none under managed memory).
     */
    @Override
    public void enqueue(Backend backend, int device, StreamHandle stream, OperationLabel label) {
        Object[] onDevice = args.clone();
        for (int i = 0; i < onDevice.length; i++) {
            if (onDevice[i] instanceof DeviceArray a) {
                onDevice[i] = a.deviceReplica(device);
            } else if (onDevice[i] instanceof ArrayOffset o) {
                onDevice[i] = new BufferOffset(o.array().deviceReplica(device), o.bytes());
            }
        }
        // Managed memory is one allocation, so a store through an in/const pointer lands, as it does on GrCUDA.
        backend.launch(kernel.function(device), config, onDevice, stream, label,
                backend.managedMemory() ? ReadOnlyParameters.NONE : kernel.readOnly());
    }
}
