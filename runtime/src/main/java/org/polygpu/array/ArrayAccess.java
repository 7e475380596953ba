package org.polygpu.array;

/** One array used by a computation and how it is used. */
public record ArrayAccess(DeviceArray array, Access access) {
    public ArrayAccess {
        if (array == null || access == null) {
            throw new IllegalArgumentException("array and access are required");
        }
    }
}
