package org.polygpu.backend;

/**
 * Code a backend can load as a module: PTX text, a CUBIN, or a backend's own form (the emulator's Java kernels).
 * A backend rejects images it cannot load with a {@link BackendException}.
 */
public interface ModuleImage {
    /** What the image is, for error messages. */
    String description();

    /** PTX assembly as NVRTC emits it. */
    record Ptx(String text) implements ModuleImage {
        @Override
        public String description() {
            return "PTX (" + text.length() + " chars)";
        }
    }

    /** A CUBIN for one GPU architecture. */
    record Cubin(byte[] image, String architecture) implements ModuleImage {
        @Override
        public String description() {
            return "CUBIN for " + architecture + " (" + image.length + " bytes)";
        }
    }
}
