package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/** Bad input from guest code: each error says what is wrong, and the context stays usable after it. */
class ErrorsTest {
    private Context context;

    @BeforeEach
    void open() {
        context = Polyglot.context();
    }

    @AfterEach
    void close() {
        assertEquals(4, Polyglot.eval(context, "cudaGetDeviceCount()").asInt(), "the context is still usable");
        context.close();
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "float[10; 1; 9; expected ']'",
        "float[]; 1; 7; expected a number",
        "int[4][x]; 1; 8; expected a number",
        "double[1.5]; 1; 8; must be an integer",
        "float[0]; 1; 7; at least 1",
        "int[5 / 0]; 1; 7; division by zero",
        "int[9223372036854775807 + 1]; 1; 25; overflows 64 bits",
        "buildkernel(; 1; 13; expected a number",
        "/* open; 1; 1; not closed",
        "@; 1; 1; unexpected character"})
    void syntaxErrorsCarryTheirLocation(String code, int line, int column, String message) {
        PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(context, code));
        assertTrue(e.isSyntaxError(), "a syntax error: " + e);
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertEquals(line, e.getSourceLocation().getStartLine(), e.getMessage());
        assertEquals(column, e.getSourceLocation().getStartColumn(), e.getMessage());
    }

    @Test
    void syntaxErrorOnALaterLineReportsThatLine() {
        PolyglotException e = assertThrows(PolyglotException.class,
                () -> Polyglot.eval(context, "// a comment\n  float[4]]"));
        assertEquals(2, e.getSourceLocation().getStartLine());
        assertEquals(11, e.getSourceLocation().getStartColumn());
        assertTrue(e.getMessage().contains("syntax error at 2:11"), e.getMessage());
    }

    /** 2000 nested brackets are a syntax error at the bracket that goes too deep, not a stack overflow. */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {"int[; (; 1]", "int[; -; 1]", "f(; g(; )"})
    void deepNestingIsASyntaxErrorAtItsPosition(String prefix, String open, String close) {
        String code = prefix + open.repeat(2000) + "1" + close.repeat(2000);
        PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(context, code));
        assertTrue(e.isSyntaxError(), "a syntax error: " + e);
        assertTrue(e.getMessage().contains("nesting deeper than 200 levels"), e.getMessage());
        assertEquals(prefix.length() + 201 * open.length() - open.length() + 1,
                e.getSourceLocation().getStartColumn(), e.getMessage());
    }

    @Test
    void unknownIdentifierNamesWhatExists() {
        PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(context, "buildKernel"));
        assertTrue(e.getMessage().contains("unknown identifier 'buildKernel'"), e.getMessage());
        assertTrue(e.getMessage().contains("buildkernel") && e.getMessage().contains("DeviceArray"), e.getMessage());
        PolyglotException ns = assertThrows(PolyglotException.class, () -> Polyglot.eval(context, "cuml::f"));
        assertTrue(ns.getMessage().contains("'cuml'"), ns.getMessage());
    }

    @Test
    void builtinArityAndTypesAreNamed() {
        Value cu = Polyglot.eval(context, "CU");
        PolyglotException arity = assertThrows(PolyglotException.class, () -> cu.invokeMember("getdevice"));
        assertTrue(arity.getMessage().contains("getdevice expects 1 arguments, got 0"), arity.getMessage());
        PolyglotException range = assertThrows(PolyglotException.class, () -> cu.invokeMember("getdevice", 9));
        assertTrue(range.getMessage().contains("argument 'device' must be an integer in 0..3"), range.getMessage());
        PolyglotException type = assertThrows(PolyglotException.class,
                () -> cu.invokeMember("DeviceArray", 5, 5));
        assertTrue(type.getMessage().contains("argument 'type' must be a string"), type.getMessage());
        PolyglotException signature = assertThrows(PolyglotException.class,
                () -> cu.invokeMember("buildkernel", "", "k(x: in pointer quad)"));
        assertTrue(signature.getMessage().contains("unknown element type 'quad'"), signature.getMessage());
        PolyglotException legacy = assertThrows(PolyglotException.class,
                () -> cu.invokeMember("buildkernel", "", "k", "pointer, sint33"));
        assertTrue(legacy.getMessage().contains("sint33"), legacy.getMessage());
    }

    /** Every builtin checks its declared arity before it runs, with one wording. */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "DeviceArray; 0; DeviceArray expects at least 1 arguments, got 0",
        "buildkernel; 1; buildkernel expects 2 to 4 arguments, got 1",
        "bindkernel; 4; bindkernel expects 2 to 3 arguments, got 4",
        "getdevices; 1; getdevices expects 0 arguments, got 1",
        "getdevice; 2; getdevice expects 1 arguments, got 2",
        "getoptions; 1; getoptions expects 0 arguments, got 1",
        "cudaDeviceSynchronize; 1; cudaDeviceSynchronize expects 0 arguments, got 1",
        "cudaGetDeviceCount; 3; cudaGetDeviceCount expects 0 arguments, got 3"})
    void everyBuiltinChecksItsArity(String builtin, int count, String message) {
        Value cu = Polyglot.eval(context, "CU");
        PolyglotException e = assertThrows(PolyglotException.class,
                () -> cu.invokeMember(builtin, new Object[count]));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void deviceArrayOfATypeChecksItsArity() {
        Value ofFloat = Polyglot.eval(context, "CU").invokeMember("DeviceArray", "float");
        assertEquals("function DeviceArray(float)", ofFloat.toString());
        PolyglotException e = assertThrows(PolyglotException.class, () -> ofFloat.execute());
        assertTrue(e.getMessage().contains("DeviceArray(float) expects at least 1 arguments, got 0"), e.getMessage());
        assertEquals(2, ofFloat.execute(2).getArraySize());
    }

    @Test
    void devicesExposeIdAndProperties() {
        Value devices = Polyglot.eval(context, "getdevices()");
        assertEquals(4, devices.getArraySize());
        Value d = Polyglot.eval(context, "getdevice(2)");
        assertEquals(2, d.getMember("id").asInt());
        assertTrue(d.getMember("deviceName").asString().contains("V100"));
        long total = d.getMember("totalDeviceMemory").asLong();
        assertTrue(total > 0 && d.getMember("freeDeviceMemory").asLong() <= total);
        assertEquals(1024, d.getMember("properties").getMember("maxThreadsPerBlock").asInt());
        assertEquals(7, d.getMember("properties").getMember("computeCapabilityMajor").asInt());
    }
}
