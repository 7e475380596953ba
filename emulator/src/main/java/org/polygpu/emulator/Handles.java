package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.StreamHandle;

/**
 * Turns the SPI's handles back into the emulator's objects, refusing handles of another backend and ones whose life
 * is over (freed buffers, destroyed streams and events) with a {@link BackendException}.
 */
final class Handles {
    private final Object owner;

    Handles(Object owner) {
        this.owner = owner;
    }

    /** A buffer of this backend, live or freed. */
    EmulatedBuffer anyBuffer(DeviceBuffer buffer) {
        if (!(buffer instanceof EmulatedBuffer b) || b.owner() != owner) {
            throw new BackendException(buffer + " was not allocated by this emulated backend");
        }
        return b;
    }

    /** A live buffer of this backend, playing {@code role} in an operation. */
    EmulatedBuffer buffer(DeviceBuffer buffer, String role) {
        EmulatedBuffer b = anyBuffer(buffer);
        b.checkLive(role);
        return b;
    }

    EmulatedStream stream(StreamHandle stream) {
        if (!(stream instanceof EmulatedStream s) || s.owner() != owner) {
            throw new BackendException("stream " + stream + " does not belong to this emulated backend");
        }
        s.checkLive();
        return s;
    }

    EmulatedEvent event(EventHandle event) {
        if (!(event instanceof EmulatedEvent e) || e.owner() != owner) {
            throw new BackendException("event " + event + " does not belong to this emulated backend");
        }
        e.checkLive();
        return e;
    }

    EmulatedModule module(ModuleHandle module) {
        if (!(module instanceof EmulatedModule m) || m.owner() != owner) {
            throw new BackendException("module " + module + " was not loaded by this emulated backend");
        }
        return m;
    }

    EmulatedFunction function(FunctionHandle function) {
        if (!(function instanceof EmulatedFunction f) || f.owner() != owner) {
            throw new BackendException("function " + function + " does not belong to this emulated backend");
        }
        return f;
    }
}
