package org.polygpu.blas;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Numbers of one precision in device memory, read and written as doubles (real and imaginary parts), by number
 * index; an index past the memory throws {@link IndexOutOfBoundsException}.
 */
final class Vector {
    private final MemorySegment memory;
    private final boolean isDouble;
    private final int width;

    Vector(Object memory, BlasPrecision p, String name) {
        if (!(memory instanceof MemorySegment s)) {
            throw new IllegalArgumentException(name + " must be device memory, got " + memory);
        }
        this.memory = s;
        this.isDouble = p.realType().bytes() == 8;
        this.width = p.width();
    }

    double re(long i) {
        return get(i * width);
    }

    double im(long i) {
        return width == 1 ? 0 : get(i * width + 1);
    }

    void set(long i, double re, double im) {
        put(i * width, re);
        if (width == 2) {
            put(i * width + 1, im);
        }
    }

    private double get(long element) {
        return isDouble ? memory.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, element)
                : memory.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, element);
    }

    private void put(long element, double v) {
        if (isDouble) {
            memory.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, element, v);
        } else {
            memory.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, element, (float) v);
        }
    }

    /** The index of the {@code i}-th of {@code n} numbers with stride {@code inc} (BLAS's negative strides too). */
    static long at(long i, int n, int inc) {
        return inc >= 0 ? i * inc : (n - 1 - i) * (long) -inc;
    }
}
