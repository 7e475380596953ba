package org.polygpu.emulator.ptx;

import java.util.List;

/**
 * A module-scope {@code .global} or {@code .const} variable: the loader allocates it on each device the module is
 * loaded on, copies the initial bytes in and then writes each relocation; launches see it at that device address.
 *
 * @param name        PTX name
 * @param constant    whether it is {@code .const} (read-only to kernels)
 * @param size        bytes
 * @param init        initial bytes, at most {@code size}; the rest is zero
 * @param relocations the 64-bit addresses of other module variables in the initial value
 *                    ({@code .u64 p = generic($str)}, a {@code const char *} set to a string literal)
 */
public record ModuleVariable(String name, boolean constant, int size, byte[] init, List<Relocation> relocations) {
    /** The device address of module variable {@code symbol} plus {@code addend}, at byte {@code offset}. */
    public record Relocation(int offset, String symbol, long addend) {
    }

    public ModuleVariable {
        init = init.clone();
        relocations = List.copyOf(relocations);
    }

    @Override
    public byte[] init() {
        return init.clone();
    }
}
