package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Host values of the wrong kind, from Python, JavaScript and Java: each is a guest error (catchable, never an internal
 * error) naming the parameter or element, what was expected and what was received, and the next correct launch in
 * the same context gives the right answer.
 */
class HostValueErrorsTest {
    private static final String SIGNATURE = "scale(x: in pointer double, y: out pointer double, a: double, n: sint32)";

    private Context context;
    private Value cu;
    private Value scale;

    @BeforeEach
    void open() {
        Polyglot.assumeNvrtc();
        context = Polyglot.context();
        cu = Polyglot.eval(context, "CU");
        scale = cu.getMember("buildkernel").execute(Kernels.SCALE, SIGNATURE);
        Value bindings = context.getPolyglotBindings();
        bindings.putMember("scale", scale);
        bindings.putMember("x", cu.invokeMember("DeviceArray", "double", 8));
        bindings.putMember("y", cu.invokeMember("DeviceArray", "double", 8));
        bindings.putMember("f", cu.invokeMember("DeviceArray", "float", 8));
        bindings.putMember("l", cu.invokeMember("DeviceArray", "long", 4));
        bindings.putMember("i", cu.invokeMember("DeviceArray", "int", 4));
        bindings.putMember("u", cu.invokeMember("DeviceArray", "unsigned long", 4));
    }

    @AfterEach
    void close() {
        if (context == null) {
            return;
        }
        Value x = context.getPolyglotBindings().getMember("x");
        Value y = context.getPolyglotBindings().getMember("y");
        for (int k = 0; k < 8; k++) {
            x.setArrayElement(k, k);
        }
        scale.execute(1, 8).execute(x, y, 3.0, 8);
        for (int k = 0; k < 8; k++) {
            assertEquals(3.0 * k, y.getArrayElement(k).asDouble(), "the next launch is right: y[" + k + "]");
        }
        context.close();
    }

    /** Runs a Python statement; returns the message of the guest exception it raised, which Python caught. */
    private String python(String statement) {
        Value result = context.eval("python", """
                import polyglot
                for name in ("scale", "x", "y", "f", "l", "i", "u"):
                    globals()[name] = polyglot.import_value(name)
                CU = polyglot.eval(language="polygpu", string="CU")
                class BadRepr:
                    def __repr__(self):
                        raise ValueError("no repr")
                def attempt():
                    try:
                        %s
                        return "no error"
                    except polyglot.ForeignException as e:
                        return str(e)
                attempt()
                """.formatted(statement));
        return result.asString();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "scale(1, 8)([1.0] * 8, y, 2.0, 8)| parameter 'x: in pointer double' must be a device array, got list [1.0,",
        "scale(1, 8)(None, y, 2.0, 8)| parameter 'x: in pointer double' must be a device array, got NoneType None",
        "scale(1, 8)({'a': 1}, y, 2.0, 8)| must be a device array, got dict {'a': 1}",
        "scale(1, 8)(x, y, 1j, 8)| parameter 'a: double': expected a number for double, got complex 1j",
        "scale(1, 8)(x, y, [2.0], 8)| parameter 'a: double': expected a number for double, got list [2.0]",
        "scale(1, 8)(x, y, None, 8)| parameter 'a: double': expected a number for double, got NoneType None",
        "scale(1, 8)(x, y, 2.0, 2**64)| parameter 'n: int': 18446744073709551616 does not fit int",
        "scale(1, 8)(x, y, 2.0, 2**70)| parameter 'n: int': 1180591620717411303424 does not fit int",
        "scale(1, 8)(x, y, 2.0, -2**70)| -1180591620717411303424 does not fit int",
        "scale(1, 8)(x, y, 2**2000, 8)| does not fit double",
        "scale(None, 8)| grid",
        "scale([1, None], 8)| grid",
        "x[0] = [1]| element 0 of array #0 double[8]: expected a number for double, got list [1]",
        "x[0] = None| element 0 of array #0 double[8]: expected a number for double, got NoneType None",
        "x[0] = {}| element 0 of array #0 double[8]: expected a number for double, got dict {}",
        "x[0] = 1j| element 0 of array #0 double[8]: expected a number for double, got complex 1j",
        "x[0] = BadRepr()| element 0 of array #0 double[8]: expected a number for double, got BadRepr",
        "l[0] = 2**64 + 5| 18446744073709551621 does not fit long",
        "l[1] = 2**70| 1180591620717411303424 does not fit long",
        "i[0] = 2**70| 1180591620717411303424 does not fit int",
        "u[0] = 2**64| 18446744073709551616 does not fit unsigned long",
        "u[0] = -1| -1 does not fit unsigned long",
        "x.copyFrom(None)| copyFrom: argument 'source' must be a device array, an array, a buffer or a pointer, got NoneType",
        "x.copyFrom(3)| copyFrom: argument 'pointer' must be a native address (or a device array, an array or a buf",
        "x.copyFrom(2.5)| copyFrom: argument 'source' must be a device array, an array, a buffer or a pointer, got 2.5",
        "l.copyFrom([1, None, 3, 4])| copyFrom: element 1: expected a number for long, got NoneType None",
        "l.copyFrom([1, 2**64, 3, 4])| copyFrom: element 1: 18446744073709551616 does not fit long",
        "x.copyTo(None)| copyTo: argument 'destination' must be a device array, an array, a writable buffer or a poin",
        "CU.DeviceArray('float', None)| DeviceArray: argument 'size 1' must be an integer, got NoneType None",
        "CU.DeviceArray('float', [4])| DeviceArray: argument 'size 1' must be an integer, got list [4]",
        "CU.DeviceArray('float', 2**70)| 'size 1' must be an integer of at most 64 bits, got int 11805916207174113",
        "CU.DeviceArray(None, 4)| DeviceArray: argument 'type' must be a string, got NoneType None",
        "CU.buildkernel(None, 'k(x: sint32)')| buildkernel: argument 'source' must be a string, got NoneType None",
        "CU.getdevice(2**70)| getdevice: argument 'device' must be an integer"})
    void pythonValuesOfTheWrongKindRaiseCatchableErrors(String statement, String message) {
        String error = python(statement);
        assertTrue(error.contains(message.strip()), statement + " -> " + error);
    }

    /** Runs a JavaScript statement; returns the message of the guest exception it raised, which JavaScript caught. */
    private String javascript(String statement) {
        return context.eval("js", """
                (function() {
                    const b = Polyglot.import.bind(Polyglot);
                    const scale = b('scale'), x = b('x'), y = b('y'), l = b('l'), i = b('i');
                    try { %s; return 'no error'; } catch (e) { return String(e.message); }
                })()""".formatted(statement)).asString();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "scale(1, 8)([1, 2], y, 2, 8)| parameter 'x: in pointer double' must be a device array, got",
        "scale(1, 8)(null, y, 2, 8)| parameter 'x: in pointer double' must be a device array, got",
        "scale(1, 8)(undefined, y, 2, 8)| parameter 'x: in pointer double' must be a device array, got",
        "scale(1, 8)(x, y, {}, 8)| parameter 'a: double': expected a number for double, got",
        "scale(1, 8)(x, y, 2, 2n ** 70n)| 1180591620717411303424 does not fit int",
        "x[0] = [1]| element 0 of array #0 double[8]: expected a number for double, got",
        "x[0] = null| element 0 of array #0 double[8]: expected a number for double, got null",
        "l[0] = 2n ** 64n + 5n| 18446744073709551621 does not fit long",
        "i[0] = 2n ** 70n| 1180591620717411303424 does not fit int",
        "x.copyFrom(null)| copyFrom: argument 'source' must be a device array, an array, a buffer or a pointer, got"})
    void javascriptValuesOfTheWrongKindRaiseCatchableErrors(String statement, String message) {
        String error = javascript(statement);
        assertTrue(error.contains(message.strip()), statement + " -> " + error);
    }

    private void assertGuestError(String message, Runnable action) {
        PolyglotException e = assertThrows(PolyglotException.class, action::run);
        assertFalse(e.isInternalError(), () -> "an internal error: " + e);
        assertTrue(e.isGuestException(), e::toString);
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void javaValuesOfTheWrongKindRaiseGuestErrors() {
        Value b = context.getPolyglotBindings();
        Value x = b.getMember("x");
        Value y = b.getMember("y");
        assertGuestError("parameter 'x: in pointer double' must be a device array, got int[]",
                () -> scale.execute(1, 8).execute(new int[] {1, 2}, y, 2.0, 8));
        assertGuestError("parameter 'x: in pointer double' must be a device array, got",
                () -> scale.execute(1, 8).execute(List.of(1.0), y, 2.0, 8));
        assertGuestError("parameter 'a: double': expected a number for double, got",
                () -> scale.execute(1, 8).execute(x, y, Map.of(), 8));
        assertGuestError("parameter 'n: int': 1180591620717411303424 does not fit int",
                () -> scale.execute(1, 8).execute(x, y, 2.0, BigInteger.TWO.pow(70)));
        assertGuestError("18446744073709551621 does not fit long",
                () -> b.getMember("l").setArrayElement(0, BigInteger.TWO.pow(64).add(BigInteger.valueOf(5))));
        assertGuestError("element 0 of array #0 double[8]: expected a number for double, got int[]",
                () -> x.setArrayElement(0, new int[] {1}));
        assertGuestError("element 0 of array #0 double[8]: expected a number for double, got",
                () -> x.setArrayElement(0, List.of(1)));
        assertGuestError("DeviceArray: argument 'size 1' must be an integer of at most 64 bits, got BigInteger",
                () -> cu.invokeMember("DeviceArray", "float", BigInteger.TWO.pow(70)));
        assertGuestError("copyFrom: element 0: expected a number for double, got",
                () -> x.invokeMember("copyFrom", java.util.Collections.nCopies(8, List.of(1))));
        assertGuestError("element 1 of array #0 double[8]: expected a number for double, got a Java object of "
                + "class java.lang.Object, which is not a number, a string or an array",
                () -> x.setArrayElement(1, new Object()));
    }
}
