package org.polygpu.array;

/** How a computation uses an array argument, from the kernel signature ({@code in}, {@code out}, {@code inout}). */
public enum Access {
    /** Only read ({@code in}, {@code const pointer}). */
    READ,
    /** Only written ({@code out}); the previous contents are still copied in, since a kernel may write a part. */
    WRITE,
    /** Read and written ({@code inout}, plain {@code pointer}). */
    READ_WRITE;

    public boolean isReadOnly() {
        return this == READ;
    }

    /** The mode of an array passed twice to one computation. */
    public Access merge(Access other) {
        return this == other ? this : READ_WRITE;
    }
}
