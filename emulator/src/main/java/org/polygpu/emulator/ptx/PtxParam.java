package org.polygpu.emulator.ptx;

/**
 * A kernel parameter as the {@code .entry} declares it.
 *
 * @param index  position in the parameter list, from 0
 * @param name   PTX name, e.g. {@code vadd_param_0}
 * @param type   element type; a pointer is a {@code .u64} (or {@code .b64}/{@code .s64})
 * @param size   bytes; larger than the type's size for an aggregate ({@code .b8 name[16]})
 * @param offset byte offset in the parameter buffer, aligned as declared
 */
public record PtxParam(int index, String name, PtxType type, int size, int offset) {
    /** Whether a launch argument for this parameter may be a device buffer (a 64-bit integer scalar slot). */
    public boolean acceptsPointer() {
        return size == 8 && type.size() == 8 && type.isInteger();
    }

    /** The type as PTX spells it, with the array size for aggregates, e.g. {@code .u64} or {@code .b8[16]}. */
    public String spelling() {
        return size == type.size() ? type.spelling() : type.spelling() + "[" + size / type.size() + "]";
    }
}
