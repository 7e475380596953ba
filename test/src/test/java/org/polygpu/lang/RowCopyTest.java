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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code copyFrom}/{@code copyTo} on a row {@code m[i]} of a multi-dimensional array, in both orders, as GrCUDA's
 * {@code DeviceArrayCopyFunctionTest} uses them: a row to and from a 1-D array, a row to and from the same row of
 * another array, and from host arrays; only the row's elements change.
 */
class RowCopyTest {
    private static final int ROWS = 10;
    private static final int COLUMNS = 25;

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

    /** A ROWS x COLUMNS int array in {@code order} with m[i][j] = sign * (i * COLUMNS + j). */
    private Value matrix(String order, int sign) {
        Value m = cu.invokeMember("DeviceArray", "int", ROWS, COLUMNS, order);
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < COLUMNS; j++) {
                m.getArrayElement(i).setArrayElement(j, sign * (i * COLUMNS + j));
            }
        }
        return m;
    }

    private static void assertMatrix(Value m, int changedRow, int changedSign, int sign) {
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < COLUMNS; j++) {
                int expected = (i == changedRow ? changedSign : sign) * (i * COLUMNS + j);
                assertEquals(expected, m.getArrayElement(i).getArrayElement(j).asInt(), "m[" + i + "][" + j + "]");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"C", "F"})
    void aRowCopiesToAndFromAOneDimensionalArray(String order) {
        Value m = matrix(order, 1);
        Value flat = cu.invokeMember("DeviceArray", "int", COLUMNS);
        Value row = m.getArrayElement(3);
        row.invokeMember("copyTo", flat, row.getArraySize());
        for (int j = 0; j < COLUMNS; j++) {
            assertEquals(3 * COLUMNS + j, flat.getArrayElement(j).asInt());
            flat.setArrayElement(j, 42 + j);
        }
        m.getArrayElement(5).invokeMember("copyFrom", flat, COLUMNS);
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < COLUMNS; j++) {
                int expected = i == 5 ? 42 + j : i * COLUMNS + j;
                assertEquals(expected, m.getArrayElement(i).getArrayElement(j).asInt(), "m[" + i + "][" + j + "]");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"C", "F"})
    void aRowCopiesToAndFromTheSameRowOfAnotherArray(String order) {
        Value source = matrix(order, 1);
        Value destination = matrix(order, -1);
        source.getArrayElement(3).invokeMember("copyTo", destination.getArrayElement(3),
                source.getArrayElement(3).getArraySize());
        assertMatrix(destination, 3, 1, -1);
        assertMatrix(source, -1, 1, 1);
        Value other = matrix(order, -1);
        source.getArrayElement(7).invokeMember("copyFrom", other.getArrayElement(7));
        assertMatrix(source, 7, -1, 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"C", "F"})
    void aRowCopiesToAndFromHostArraysAndPartially(String order) {
        Value m = matrix(order, 1);
        int[] values = new int[COLUMNS];
        for (int j = 0; j < COLUMNS; j++) {
            values[j] = 1000 + j;
        }
        m.getArrayElement(2).invokeMember("copyFrom", values, 4);
        int[] out = new int[COLUMNS];
        m.getArrayElement(2).invokeMember("copyTo", out);
        for (int j = 0; j < COLUMNS; j++) {
            assertEquals(j < 4 ? 1000 + j : 2 * COLUMNS + j, out[j], "row 2, column " + j);
        }
        assertEquals(2 * COLUMNS + 4, m.getArrayElement(2).getArrayElement(4).asInt());
        assertEquals(3 * COLUMNS, m.getArrayElement(3).getArrayElement(0).asInt(), "the next row is unchanged");
    }

    @Test
    void aRowCopiesFromPythonBuffers() {
        Value r = context.eval("python", """
                import polyglot, array
                CU = polyglot.eval(language='polygpu', string='CU')
                m = CU.DeviceArray('float', 3, 4, 'F')
                m[1].copyFrom(array.array('f', [1, 2, 3, 4]))
                out = bytearray(16)
                m[1].copyTo(out)
                [list(array.array('f', bytes(out))), [m[i][j] for i in range(3) for j in range(4)]]
                """);
        assertEquals("[[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0]]",
                r.toString());
    }

    /** A block m[i] of a 3-D row-major array is contiguous and copies; of a column-major one it is not one region. */
    @Test
    void blocksOfRowMajorArraysCopyAndOthersHaveNoCopies() {
        Value c = cu.invokeMember("DeviceArray", "long", 2, 2, 3);
        c.getArrayElement(1).invokeMember("copyFrom", new long[] {1, 2, 3, 4, 5, 6});
        long[] all = new long[12];
        c.invokeMember("copyTo", all);
        assertArrayEquals(new long[] {0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6}, all);
        Value f = cu.invokeMember("DeviceArray", "long", 2, 2, 3, "F");
        assertFalse(f.getArrayElement(1).hasMembers());
        assertTrue(f.getArrayElement(1).getArrayElement(0).hasMember("copyTo"));
        PolyglotException e = assertThrows(PolyglotException.class,
                () -> c.getArrayElement(0).invokeMember("copyFrom", new long[] {1, 2}, 7));
        assertTrue(e.getMessage().contains("copyFrom: argument 'n' must be an element count in 0..6, got 7"),
                e.getMessage());
    }
}
