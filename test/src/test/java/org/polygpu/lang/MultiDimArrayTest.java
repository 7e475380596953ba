package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Multi-dimensional arrays: nested views, C and F order, only the last dimension writable. */
class MultiDimArrayTest {
    private Context context;
    private Value cu;

    @BeforeEach
    void open() {
        context = Polyglot.context();
        cu = Polyglot.eval(context, "CU");
    }

    @AfterEach
    void close() {
        context.close();
    }

    /** Writes element {@code k} = its own flat row-major number and checks the flat memory per order. */
    @ParameterizedTest
    @CsvSource({"C, 3;4", "F, 3;4", "C, 2;3;4", "F, 2;3;4", "C, 2;3;2;5", "F, 2;3;2;5"})
    void elementsLandWhereTheOrderPutsThem(String order, String dims) {
        long[] shape = java.util.Arrays.stream(dims.split(";")).mapToLong(Long::parseLong).toArray();
        Object[] args = new Object[shape.length + 2];
        args[0] = "int";
        for (int i = 0; i < shape.length; i++) {
            args[i + 1] = shape[i];
        }
        args[shape.length + 1] = order;
        Value m = cu.invokeMember("DeviceArray", args);
        int count = (int) java.util.Arrays.stream(shape).reduce(1, (x, y) -> x * y);
        int[] expected = new int[count];
        for (int k = 0; k < count; k++) {
            int[] index = unravel(k, shape);
            Value view = m;
            for (int d = 0; d < shape.length - 1; d++) {
                view = view.getArrayElement(index[d]);
            }
            view.setArrayElement(index[shape.length - 1], k);
            expected[flat(index, shape, order.equals("F"))] = k;
        }
        int[] memory = new int[count];
        m.invokeMember("copyTo", memory);
        assertArrayEquals(expected, memory);
        int[] last = unravel(count - 1, shape);
        Value view = m;
        for (int d = 0; d < shape.length - 1; d++) {
            view = view.getArrayElement(last[d]);
        }
        assertEquals(count - 1, view.getArrayElement(last[shape.length - 1]).asInt());
    }

    private static int[] unravel(int k, long[] shape) {
        int[] index = new int[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            index[d] = (int) (k % shape[d]);
            k /= (int) shape[d];
        }
        return index;
    }

    private static int flat(int[] index, long[] shape, boolean columnMajor) {
        int offset = 0;
        int stride = 1;
        for (int i = 0; i < shape.length; i++) {
            int d = columnMajor ? i : shape.length - 1 - i;
            offset += index[d] * stride;
            stride *= (int) shape[d];
        }
        return offset;
    }

    @Test
    void onlyTheLastDimensionIsWritable() {
        Value m = Polyglot.eval(context, "float[2][3]");
        PolyglotException e = assertThrows(PolyglotException.class, () -> m.setArrayElement(0, 1.0));
        assertTrue(e.getMessage().contains("only the last dimension"), e.getMessage());
        m.getArrayElement(1).setArrayElement(2, 4.5);
        assertEquals(4.5, m.getArrayElement(1).getArrayElement(2).asDouble());
        Value cube = Polyglot.eval(context, "float[2][2][2]");
        assertThrows(PolyglotException.class, () -> cube.getArrayElement(0).setArrayElement(1, 1.0));
    }

    @Test
    void viewsCheckTheirIndicesAndFreeAppliesToTheWholeArray() {
        Value m = cu.invokeMember("DeviceArray", "double", 2, 3, "F");
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> m.getArrayElement(2));
        Value row = m.getArrayElement(1);
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> row.getArrayElement(3));
        m.invokeMember("free");
        PolyglotException e = assertThrows(PolyglotException.class, () -> row.getArrayElement(0));
        assertTrue(e.getMessage().contains("was freed"), e.getMessage());
    }

    /**
     * The members act on the whole array, so a view of part of it has only the copies of its own elements; it still
     * copies as an array-like too.
     */
    @Test
    void membersBelongToTheWholeArrayNotToItsViews() {
        Value m = Polyglot.eval(context, "int[2][3]");
        assertEquals(java.util.Set.of("copyFrom", "copyTo", "free", "isMemoryFreed", "offset"), m.getMemberKeys());
        assertEquals("MultiDimDeviceArray(int, 2, 3, 'C')", m.toString());
        Value row = m.getArrayElement(1);
        assertEquals(java.util.Set.of("copyFrom", "copyTo"), row.getMemberKeys());
        assertThrows(UnsupportedOperationException.class, () -> row.invokeMember("free"));
        assertFalse(m.invokeMember("isMemoryFreed").asBoolean());
        row.setArrayElement(2, 7);
        Value flat = cu.invokeMember("DeviceArray", "int", 3);
        flat.invokeMember("copyFrom", row);
        assertEquals(7, flat.getArrayElement(2).asInt());
    }

    @Test
    void badOrderAndSizesAreRejected() {
        PolyglotException order = assertThrows(PolyglotException.class,
                () -> cu.invokeMember("DeviceArray", "float", 2, 2, "X"));
        assertTrue(order.getMessage().contains("'C' or 'F'"), order.getMessage());
        PolyglotException size = assertThrows(PolyglotException.class,
                () -> cu.invokeMember("DeviceArray", "float", 2, 0));
        assertTrue(size.getMessage().contains("size 2"), size.getMessage());
        PolyglotException type = assertThrows(PolyglotException.class,
                () -> cu.invokeMember("DeviceArray", "quaternion", 2));
        assertTrue(type.getMessage().contains("valid types"), type.getMessage());
    }
}
