package org.polygpu.cuda;

import org.polygpu.config.MemoryModel;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.StreamHandle;

/**
 * The handles a {@link CudaBackend} gives out, each remembering its backend so that a foreign handle is refused,
 * and whether it was released, so that a use after release is an error rather than a driver crash.
 */
final class CudaHandles {
    private CudaHandles() {
    }

    /** Device memory: {@code cuMemAlloc} or, under {@code MemoryModel=managed}, {@code cuMemAllocManaged}. */
    static final class Buffer implements DeviceBuffer {
        final CudaBackend owner;
        final int device;
        final long bytes;
        final long pointer;
        boolean freed;

        Buffer(CudaBackend owner, int device, long bytes, long pointer) {
            this.owner = owner;
            this.device = device;
            this.bytes = bytes;
            this.pointer = pointer;
        }

        @Override
        public int device() {
            return device;
        }

        @Override
        public long bytes() {
            return bytes;
        }

        @Override
        public String toString() {
            return device == MANAGED ? "managed buffer of " + bytes + " bytes"
                    : "buffer of " + bytes + " bytes on device " + device;
        }
    }

    /** A non-blocking {@code CUstream}. */
    static final class Stream implements StreamHandle {
        final CudaBackend owner;
        final int device;
        final int id;
        final MemorySegment handle;
        boolean destroyed;

        Stream(CudaBackend owner, int device, int id, MemorySegment handle) {
            this.owner = owner;
            this.device = device;
            this.id = id;
            this.handle = handle;
        }

        @Override
        public int device() {
            return device;
        }

        @Override
        public int id() {
            return id;
        }

        @Override
        public String toString() {
            return "stream " + id + " of device " + device;
        }
    }

    /** A timing {@code CUevent}. */
    static final class Event implements EventHandle {
        final CudaBackend owner;
        final int device;
        final MemorySegment handle;
        boolean destroyed;

        Event(CudaBackend owner, int device, MemorySegment handle) {
            this.owner = owner;
            this.device = device;
            this.handle = handle;
        }

        @Override
        public int device() {
            return device;
        }

        @Override
        public String toString() {
            return "event of device " + device;
        }
    }

    /** A {@code CUmodule}, with the mangled names of the name expressions it was compiled with. */
    static final class Module implements ModuleHandle {
        final CudaBackend owner;
        final int device;
        final MemorySegment handle;
        final Map<String, String> loweredNames;
        /** The PTX the module was loaded from, or {@code null} for a CUBIN. */
        final String ptx;
        /** The source a CUBIN was compiled from, so its PTX can be made on request; {@code null} otherwise. */
        final ModuleImage.CudaSource source;
        boolean unloaded;

        Module(CudaBackend owner, int device, MemorySegment handle, Map<String, String> loweredNames, String ptx,
               ModuleImage.CudaSource source) {
            this.owner = owner;
            this.device = device;
            this.handle = handle;
            this.loweredNames = Map.copyOf(loweredNames);
            this.ptx = ptx;
            this.source = source;
        }

        @Override
        public int device() {
            return device;
        }
    }

    /** A {@code CUfunction} of a loaded module. */
    static final class Function implements FunctionHandle {
        final Module module;
        final String name;
        final MemorySegment handle;

        Function(Module module, String name, MemorySegment handle) {
            this.module = module;
            this.name = name;
            this.handle = handle;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int device() {
            return module.device;
        }

        @Override
        public String toString() {
            return "kernel '" + name + "' on device " + module.device;
        }
    }
}
