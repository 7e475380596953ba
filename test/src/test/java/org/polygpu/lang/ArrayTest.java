package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One-dimensional device arrays seen from a Java host: elements, types, buffers, copies and free. */
class ArrayTest {
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

    /** Each element type: fresh arrays read zero, and the extreme values round-trip. */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "char; -128; 127",
        "unsigned char; 0; 255",
        "short; -32768; 32767",
        "unsigned short; 0; 65535",
        "int; -2147483648; 2147483647",
        "unsigned int; 0; 4294967295",
        "long; -9223372036854775808; 9223372036854775807",
        "unsigned long; 0; 9223372036854775807",
        "float; -3.0e38; 1.25",
        "double; -1.0e300; 2.5e-300"})
    void everyElementTypeReadsZeroWhenFreshAndRoundTrips(String type, String min, String max) {
        for (Value a : List.of(Polyglot.eval(context, type + "[5]"), cu.invokeMember("DeviceArray", type, 5))) {
            assertEquals(5, a.getArraySize());
            for (int i = 0; i < 5; i++) {
                assertEquals(0.0, a.getArrayElement(i).asDouble(), "fresh " + type + "[" + i + "]");
            }
            boolean floating = type.equals("float") || type.equals("double");
            Object lo = floating ? (Object) Double.parseDouble(min) : (Object) Long.parseLong(min);
            Object hi = floating ? (Object) Double.parseDouble(max) : (Object) Long.parseLong(max);
            a.setArrayElement(1, lo);
            a.setArrayElement(3, hi);
            if (type.equals("float")) {
                assertEquals((float) Double.parseDouble(min), a.getArrayElement(1).asFloat());
            } else if (floating) {
                assertEquals(lo, a.getArrayElement(1).asDouble());
                assertEquals(hi, a.getArrayElement(3).asDouble());
            } else {
                assertEquals(lo, a.getArrayElement(1).asLong());
                assertEquals(hi, a.getArrayElement(3).asLong());
            }
        }
    }

    @Test
    void boolArraysHoldBooleans() {
        Value a = Polyglot.eval(context, "bool[3]");
        assertFalse(a.getArrayElement(0).asBoolean());
        a.setArrayElement(2, true);
        assertTrue(a.getArrayElement(2).asBoolean());
    }

    @Test
    void valueThatDoesNotFitIsRejectedAndLeavesTheArrayUnchanged() {
        Value a = Polyglot.eval(context, "int[2]");
        a.setArrayElement(0, 7);
        PolyglotException e = assertThrows(PolyglotException.class, () -> a.setArrayElement(0, 1L << 40));
        assertTrue(e.getMessage().contains("does not fit int"), e.getMessage());
        PolyglotException fraction = assertThrows(PolyglotException.class, () -> a.setArrayElement(0, 1.5));
        assertTrue(fraction.getMessage().contains("not an integer"), fraction.getMessage());
        PolyglotException text = assertThrows(PolyglotException.class, () -> a.setArrayElement(0, "x"));
        assertTrue(text.getMessage().contains("element 0 of array #0 int[2]: expected a number for int, got string "
                + "\"x\""), text.getMessage());
        assertEquals(7, a.getArrayElement(0).asInt());
    }

    @Test
    void indexOutOfRangeIsAnIndexError() {
        Value a = Polyglot.eval(context, "float[4]");
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> a.getArrayElement(4));
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> a.setArrayElement(-1, 1));
    }

    @Test
    void accessAfterFreeAndDoubleFreeFail() {
        Value a = Polyglot.eval(context, "float[4]");
        assertFalse(a.invokeMember("isMemoryFreed").asBoolean());
        a.invokeMember("free");
        assertTrue(a.invokeMember("isMemoryFreed").asBoolean());
        PolyglotException read = assertThrows(PolyglotException.class, () -> a.getArrayElement(0));
        assertTrue(read.getMessage().contains("was freed"), read.getMessage());
        assertThrows(PolyglotException.class, a::getArraySize);
        PolyglotException twice = assertThrows(PolyglotException.class, () -> a.invokeMember("free"));
        assertTrue(twice.getMessage().contains("was freed"), twice.getMessage());
        assertEquals(0.0, Polyglot.eval(context, "float[1]").getArrayElement(0).asDouble(), "context still usable");
    }

    @Test
    void bufferElementsGiveTheRawBytes() {
        Value a = Polyglot.eval(context, "float[4]");
        a.setArrayElement(2, 1.5f);
        assertTrue(a.hasBufferElements());
        assertEquals(16, a.getBufferSize());
        assertEquals(1.5f, a.readBufferFloat(ByteOrder.LITTLE_ENDIAN, 8));
        a.writeBufferInt(ByteOrder.LITTLE_ENDIAN, 0, Float.floatToIntBits(-2f));
        assertEquals(-2f, a.getArrayElement(0).asFloat());
        byte[] bytes = new byte[16];
        a.readBuffer(0, bytes, 0, 16);
        assertEquals(Float.floatToIntBits(1.5f),
                java.nio.ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(8));
    }

    @Test
    void copyFromAndCopyToAcceptJavaArraysListsAndDeviceArrays() {
        Value a = Polyglot.eval(context, "int[4]");
        a.invokeMember("copyFrom", new int[] {1, 2, 3, 4});
        Value b = Polyglot.eval(context, "int[4]");
        b.invokeMember("copyFrom", a);
        Value c = Polyglot.eval(context, "int[4]");
        c.invokeMember("copyFrom", List.of(5, 6, 7, 8), 2);
        int[] out = new int[4];
        b.invokeMember("copyTo", out);
        assertArrayEquals(new int[] {1, 2, 3, 4}, out);
        long[] wide = new long[4];
        c.invokeMember("copyTo", wide);
        assertArrayEquals(new long[] {5, 6, 0, 0}, wide, "two elements copied, converted element by element");
        PolyglotException e = assertThrows(PolyglotException.class, () -> a.invokeMember("copyFrom", new int[2]));
        assertTrue(e.getMessage().contains("holds 2 elements, 4 are needed"), e.getMessage());
    }

    @Test
    void membersCanBeReadAsMethods() {
        Value a = Polyglot.eval(context, "double[2]");
        assertTrue(a.getMemberKeys().containsAll(List.of("copyFrom", "copyTo", "free", "isMemoryFreed")));
        a.getMember("copyFrom").execute(new double[] {0.5, 0.25});
        assertEquals(0.25, a.getArrayElement(1).asDouble());
        assertEquals("DeviceArray(double, 2)", a.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "copyFrom; 0; copyFrom expects 1 to 2 arguments, got 0",
        "copyTo; 3; copyTo expects 1 to 2 arguments, got 3",
        "free; 1; free expects 0 arguments, got 1",
        "isMemoryFreed; 2; isMemoryFreed expects 0 arguments, got 2"})
    void membersCheckTheirArity(String member, int count, String message) {
        Value a = Polyglot.eval(context, "double[2]");
        PolyglotException e = assertThrows(PolyglotException.class,
                () -> a.invokeMember(member, new Object[count]));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertFalse(a.invokeMember("isMemoryFreed").asBoolean(), "a call with the wrong arity does nothing");
    }

    @Test
    void evalExpressionsFoldConstantSizesAndSkipComments() {
        assertEquals(11, Polyglot.eval(context, "float[2 * 5 + 1]").getArraySize());
        assertEquals(3, Polyglot.eval(context, "/* three */ unsigned char[(10 - 1) / 3] // bytes").getArraySize());
        assertEquals(4, Polyglot.eval(context, "::cudaGetDeviceCount()").asInt());
        assertEquals(4, Polyglot.eval(context, "CU::CU::cudaGetDeviceCount()").asInt());
        Value m = Polyglot.eval(context, "double[3][4]");
        assertEquals(3, m.getArraySize());
        assertEquals(4, m.getArrayElement(0).getArraySize());
        assertEquals(8, Polyglot.eval(context, "DeviceArray('short', 2, 4)").getArrayElement(1).getArraySize() * 2);
        assertEquals(6, Polyglot.eval(context, "DeviceArray(\"float\")(6)").getArraySize());
    }
}
