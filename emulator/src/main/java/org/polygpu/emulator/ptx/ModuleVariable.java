package org.polygpu.emulator.ptx;

/**
 * A module-scope {@code .global} or {@code .const} variable: the loader allocates it on each device the module is
 * loaded on and copies the initial bytes in; launches see it at that device address.
 *
 * @param name     PTX name
 * @param constant whether it is {@code .const} (read-only to kernels)
 * @param size     bytes
 * @param init     initial bytes, at most {@code size}; the rest is zero
 */
public record ModuleVariable(String name, boolean constant, int size, byte[] init) {
    public ModuleVariable {
        init = init.clone();
    }

    @Override
    public byte[] init() {
        return init.clone();
    }
}
