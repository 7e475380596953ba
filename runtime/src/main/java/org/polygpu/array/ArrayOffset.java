package org.polygpu.array;

/**
 * A pointer into a device array at an element offset, as a kernel argument: CUDA C's {@code x + k}. The scheduler
 * treats it as the whole array (dependencies, coherence and copies are by the whole array); only the kernel sees
 * the offset, as the address of the array's replica on its device plus {@code elements} elements.
 *
 * <p>As in C, the offset may point one past the last element (where a kernel that reads nothing may still be given
 * the end of a range), but not further nor before the first.
 *
 * @param array    the array pointed into
 * @param elements the offset in elements, in {@code 0..array.elementCount()}
 */
public record ArrayOffset(DeviceArray array, long elements) {
    /** @throws IllegalArgumentException when the offset is outside the array */
    public ArrayOffset {
        if (elements < 0 || elements > array.elementCount()) {
            throw new IllegalArgumentException("offset " + elements + " is outside " + array + " (valid offsets: 0.."
                    + array.elementCount() + ")");
        }
    }

    /** The offset in bytes. */
    public long bytes() {
        return elements * array.elementType().bytes();
    }

    @Override
    public String toString() {
        return array + " + " + elements;
    }
}
