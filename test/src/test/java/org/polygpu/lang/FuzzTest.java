package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.polygpu.lang.parser.SignatureParser;

/**
 * Property-based tests with a seeded generator ({@link Fuzz}), 10^5 cases in all: eval strings, NIDL and legacy
 * signatures, {@code DeviceArray} construction, element stores and launch arguments each give a value or a guest
 * exception that names the problem, never an internal error, and the context stays usable.
 */
class FuzzTest {
    private static final List<String> TOKENS = List.of("float", "double", "int", "unsigned", "long", "char", "short",
            "bool", "sint32", "uint8", "CU", "DeviceArray", "getdevice", "getdevices", "cudaGetDeviceCount",
            "cudaDeviceSynchronize", "getoptions", "x", "::", "[", "]", "(", ")", ",", "+", "-", "*", "/", "%", "<",
            ">", "0", "1", "3", "-1", "2.5", "1e3", "9223372036854775807", "99999999999999999999", "0x10", "\"float\"",
            "'int'", "\"C\"", "\"F\"", "\"", "/*", "*/", "//", " ", "\n", "@", "#", "\u00e9", "1e400");
    private static final List<String> PROGRAMS = List.of("float[4]", "int[2][3]", "CU::DeviceArray(\"float\", 4)",
            "DeviceArray(\"int\", 2, 3, \"F\")", "cudaGetDeviceCount()", "getdevice(1)", "unsigned long[3]",
            "double[2 * (3 + 4)]", "CU::getdevices()", "DeviceArray(\"double\")(5)", "uint8[7 % 4]");
    private static final List<String> TYPES = List.of("float", "double", "int", "unsigned int", "long",
            "unsigned long", "char", "unsigned char", "short", "bool", "sint32", "uint64", "float3", "", "pointer");
    private static final Pattern ANY = Pattern.compile("\\w{2,}.*\\w");

    private final Fuzz fuzz = new Fuzz();
    private Context context;
    private Value cu;

    @BeforeEach
    void open() {
        context = Polyglot.context();
        cu = Polyglot.eval(context, "CU");
    }

    @AfterEach
    void close() {
        assertEquals(4, Polyglot.eval(context, "cudaGetDeviceCount()").asInt(), "the context is still usable");
        context.close();
    }

    private String evalSource() {
        if (fuzz.chance(50)) {
            StringBuilder sb = new StringBuilder(fuzz.pick(PROGRAMS));
            for (int edits = 1 + fuzz.below(3); edits > 0; edits--) {
                int at = fuzz.below(sb.length() + 1);
                switch (fuzz.below(3)) {
                    case 0 -> sb.insert(at, fuzz.pick(TOKENS));
                    case 1 -> sb.delete(at, Math.min(sb.length(), at + 1 + fuzz.below(3)));
                    default -> sb.replace(at, Math.min(sb.length(), at + 1), fuzz.pick(TOKENS));
                }
            }
            return sb.toString();
        }
        StringBuilder sb = new StringBuilder();
        for (int n = 1 + fuzz.below(12); n > 0; n--) {
            sb.append(fuzz.pick(TOKENS)).append(fuzz.chance(30) ? " " : "");
        }
        return sb.toString();
    }

    @Test
    void evalStringsGiveAValueOrASyntaxOrGuestError() {
        for (int i = 0; i < 30_000; i++) {
            String code = evalSource();
            fuzz.check("eval " + code, () -> Polyglot.eval(context, code), ANY);
        }
        fuzz.assertBothOutcomes(300);
    }

    private String signatureText(boolean nidl) {
        List<String> words = nidl
                ? List.of("k", "k<int>", "(", ")", ",", ":", "x", "y", "in", "out", "inout", "const", "pointer",
                        "float", "sint32", "uint64", "double", "quad", "<", ">", "::", "1", "\"", "@")
                : List.of("pointer", "const", "pointer const", "sint32", "double", "float", "uint8", ",", ",",
                        "sint33", "(", ":", "in", "x", "@", "\"");
        StringBuilder sb = new StringBuilder(nidl && fuzz.chance(70) ? "k(" : "");
        for (int n = fuzz.below(10); n > 0; n--) {
            sb.append(fuzz.pick(words)).append(fuzz.chance(60) ? " " : "");
        }
        return sb.append(nidl && fuzz.chance(70) ? ")" : "").toString();
    }

    @Test
    void signaturesParseOrNameTheirError() {
        for (int i = 0; i < 30_000; i++) {
            boolean nidl = i % 2 == 0;
            String text = signatureText(nidl);
            try {
                Object parsed = nidl ? SignatureParser.nidl(text) : SignatureParser.legacy(text);
                assertTrue(parsed != null, text);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage().contains("signature") && e.getMessage().contains("column"),
                        "seed " + fuzz.seed + ", signature " + text + ": " + e.getMessage());
            } catch (RuntimeException | StackOverflowError e) {
                fail("seed " + fuzz.seed + ", signature " + text + ": " + e, e);
            }
        }
    }

    private Object arraySize() {
        return fuzz.chance(60) ? (Object) (long) (1 + fuzz.below(64)) : fuzz.hostValue();
    }

    @Test
    void deviceArrayConstructionGivesAnArrayOrNamesTheArgument() {
        Pattern names = Pattern.compile("DeviceArray|too large|bytes|element type");
        for (int i = 0; i < 20_000; i++) {
            List<Object> args = new ArrayList<>();
            args.add(fuzz.chance(90) ? fuzz.pick(TYPES) : fuzz.hostValue());
            for (int n = fuzz.below(4); n >= 0; n--) {
                args.add(arraySize());
            }
            if (fuzz.chance(20)) {
                args.add(fuzz.chance(50) ? fuzz.pick(List.of("C", "F", "X")) : fuzz.hostValue());
            }
            Object[] a = args.toArray();
            fuzz.check("DeviceArray" + Arrays.deepToString(a), () -> cu.invokeMember("DeviceArray", a), names);
        }
        fuzz.assertBothOutcomes(1000);
    }

    @Test
    void elementStoresStoreTheValueOrNameTheElement() {
        List<Value> arrays = new ArrayList<>();
        for (String type : TYPES.subList(0, 12)) {
            arrays.add(cu.invokeMember("DeviceArray", type, 4));
        }
        Pattern names = Pattern.compile("element \\d+ of array #\\d+ ");
        for (int i = 0; i < 15_000; i++) {
            Value array = fuzz.pick(arrays);
            int index = fuzz.below(4);
            Object value = fuzz.hostValue();
            fuzz.check("store " + Arrays.deepToString(new Object[] {value}) + " into " + array, () -> {
                array.setArrayElement(index, value);
                return array.getArrayElement(index);
            }, names);
        }
        fuzz.assertBothOutcomes(1000);
    }

    /**
     * Python values of every kind (lists, tuples, None, dicts, complex numbers, sets, bytes, ints beyond 64 bits)
     * as array sizes, elements and kernel scalars: Python catches each error as the language's exception, or sees
     * an IndexError for an index out of range; any other exception escapes and fails the test.
     */
    @Test
    void pythonValuesOfEveryKindGiveValuesOrCatchableErrors() {
        Value counts = context.eval("python", """
                import polyglot, random
                CU = polyglot.eval(language="polygpu", string="CU")
                rng = random.Random(%d)
                def value():
                    return rng.choice([0, 1, -1, 7, 2**31, 2**63, 2**64 + 5, -2**70, 2**rng.randrange(200), 1.5,
                                       float("nan"), 1e308, True, None, [1], (2,), {}, {"a": 1}, 1j, {1}, b"ab",
                                       "x", "float", [], object()])
                types = ["float", "double", "int", "unsigned int", "long", "unsigned long", "char", "bool"]
                arrays = [CU.DeviceArray(t, 4) for t in types]
                ok = errors = 0
                for case in range(4000):
                    try:
                        kind = rng.randrange(3)
                        if kind == 0:
                            a = rng.choice(arrays)
                            a[rng.randrange(-1, 5)] = value()
                        elif kind == 1:
                            sizes = [value() for _ in range(rng.randrange(1, 3))]
                            CU.DeviceArray(rng.choice(types + [value()]), *sizes)
                        else:
                            rng.choice(arrays).copyFrom([value() for _ in range(4)])
                        ok += 1
                    except polyglot.ForeignException as e:
                        if not str(e).strip():
                            raise AssertionError("an empty message in case %%d" %% case)
                        errors += 1
                    except IndexError:
                        errors += 1
                [ok, errors]
                """.formatted(fuzz.seed));
        assertTrue(counts.getArrayElement(0).asInt() > 100 && counts.getArrayElement(1).asInt() > 100,
                counts.toString());
    }

    @Test
    void launchArgumentsLaunchOrNameTheParameter() {
        Polyglot.assumeNvrtc();
        Value scale = cu.getMember("buildkernel").execute(Kernels.SCALE,
                "scale(x: in pointer double, y: out pointer double, a: double, n: sint32)");
        List<Value> arrays = List.of(cu.invokeMember("DeviceArray", "double", 8),
                cu.invokeMember("DeviceArray", "double", 8), cu.invokeMember("DeviceArray", "float", 8));
        Value freed = cu.invokeMember("DeviceArray", "double", 8);
        freed.invokeMember("free");
        Function<Integer, Object> argument = p -> switch (fuzz.below(p < 2 ? 3 : 5)) {
            case 0 -> fuzz.pick(arrays);
            case 1 -> fuzz.chance(90) ? arrays.get(p % 2) : freed;
            case 2 -> fuzz.hostValue();
            default -> p == 3 ? (Object) fuzz.below(9) : (Object) 2.0;
        };
        Pattern names = Pattern.compile("kernel scale");
        Value launcher = scale.execute(1, 8);
        for (int i = 0; i < 5_000; i++) {
            Object[] args = new Object[fuzz.chance(95) ? 4 : fuzz.below(6)];
            for (int p = 0; p < args.length; p++) {
                args[p] = argument.apply(p);
            }
            fuzz.check("scale" + Arrays.deepToString(args), () -> launcher.execute(args), names);
        }
        Polyglot.eval(context, "cudaDeviceSynchronize()");
        fuzz.assertBothOutcomes(100);
    }
}
