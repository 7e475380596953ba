package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code copyFrom}/{@code copyTo} with host values that describe their memory by numpy's array interface
 * ({@code __array_interface__}), without numpy: a Python list subclass carrying the interface over native memory
 * the test owns, so that which path ran shows in the values (the memory's, or the list's elements).
 */
class ArrayInterfaceTest {
    private static final String PYTHON = """
            import polyglot
            CU = polyglot.eval(language='polygpu', string='CU')
            class Described(list):
                def __init__(self, items, typestr, address, n, readonly=False, strides=None):
                    super().__init__(items)
                    self.__array_interface__ = {'version': 3, 'typestr': typestr, 'shape': (n,),
                                                'data': (address, readonly), 'strides': strides}
            """;

    private Context context;
    private Arena arena;
    private MemorySegment memory;

    @BeforeEach
    void open() {
        context = Polyglot.context();
        context.eval("python", PYTHON);
        arena = Arena.ofConfined();
        memory = arena.allocate(4 * Float.BYTES, 8);
    }

    @AfterEach
    void close() {
        context.close();
        arena.close();
    }

    private Value python(String code) {
        return context.eval("python", code);
    }

    private void bind(String name, Object value) {
        context.getBindings("python").putMember(name, value);
    }

    @Test
    void copyFromReadsTheDescribedMemoryNotTheElements() {
        for (int i = 0; i < 4; i++) {
            memory.setAtIndex(ValueLayout.JAVA_FLOAT, i, 1.5f + i);
        }
        bind("address", memory.address());
        Value x = python("""
                x = CU.DeviceArray('float', 4)
                x.copyFrom(Described([-1, -1, -1, -1], '<f4', address, 4))
                x""");
        for (int i = 0; i < 4; i++) {
            assertEquals(1.5 + i, x.getArrayElement(i).asDouble(), "x[" + i + "]");
        }
    }

    @Test
    void copyToWritesTheDescribedMemory() {
        bind("address", memory.address());
        python("""
                x = CU.DeviceArray('float', 4)
                x.copyFrom([4, 3, 2, 1])
                x.copyTo(Described([0, 0, 0, 0], '=f4', address, 4))""");
        for (int i = 0; i < 4; i++) {
            assertEquals(4f - i, memory.getAtIndex(ValueLayout.JAVA_FLOAT, i), "memory[" + i + "]");
        }
    }

    @Test
    void readOnlyMemoryRefusesCopyTo() {
        bind("address", memory.address());
        PolyglotException e = assertThrows(PolyglotException.class, () -> python("""
                x = CU.DeviceArray('float', 4)
                x.copyTo(Described([0, 0, 0, 0], '<f4', address, 4, readonly=True))"""));
        assertTrue(e.getMessage().contains("copyTo: the destination") && e.getMessage().contains("read-only"),
                e.getMessage());
        assertEquals(0f, memory.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
    }

    /** Another element type or a strided layout is not the array's memory: the elements are converted instead. */
    @Test
    void otherTypesAndStridedLayoutsTakeTheElementPath() {
        memory.setAtIndex(ValueLayout.JAVA_FLOAT, 0, 99f);
        bind("address", memory.address());
        Value x = python("""
                x = CU.DeviceArray('float', 2)
                x.copyFrom(Described([7, 8], '<f8', address, 2))
                y = CU.DeviceArray('float', 2)
                y.copyFrom(Described([5, 6], '<f4', address, 2, strides=(8,)))
                z = CU.DeviceArray('float', 2)
                z.copyFrom(Described([3, 4], '>f4', address, 2))
                [x[0], x[1], y[0], y[1], z[0], z[1]]""");
        double[] expected = {7, 8, 5, 6, 3, 4};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], x.getArrayElement(i).asDouble(), "element " + i);
        }
    }

    @Test
    void tooSmallMemoryIsRefusedWithBothSizes() {
        bind("address", memory.address());
        PolyglotException e = assertThrows(PolyglotException.class, () -> python("""
                x = CU.DeviceArray('float', 8)
                x.copyFrom(Described([0] * 4, '<f4', address, 4))"""));
        assertTrue(e.getMessage().contains("copyFrom: the host side holds 4 elements, 8 are needed"), e.getMessage());
    }
}
