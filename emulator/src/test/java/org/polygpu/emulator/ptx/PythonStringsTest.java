package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading CUDA source out of Python as Python would ({@link PythonStrings}). */
class PythonStringsTest {
    private static final String PYTHON = """
            PRE = r'''#include <a.h>
            '''
            K = PRE + r\"""__global__ void k() { printf("%d\\n", 1); }\"""
            def f():
                mod = SourceModule(
                        \"""say("a\\n\\tb \\x \\"q\\"")\""")
                mod = compiler.SourceModule(code=\"""two %(N)d%%\""" % {"N": 2})
            """;

    @Test
    void rawLiteralsAndSumsKeepBackslashesAsWritten() {
        assertEquals("#include <a.h>\n__global__ void k() { printf(\"%d\\n\", 1); }", PythonStrings.assigned(PYTHON,
                "K", 1));
    }

    @Test
    void plainLiteralsDecodeEscapesAndTheKthAssignmentIsChosen() {
        assertEquals("say(\"a\n\tb \\x \"q\"\")", PythonStrings.assigned(PYTHON, "mod", 1));
        assertEquals("two %(N)d%%", PythonStrings.assigned(PYTHON, "mod", 2));
        assertEquals("no assignment #3 of a string to 'mod' (found 2)", assertThrows(IllegalArgumentException.class,
                () -> PythonStrings.assigned(PYTHON, "mod", 3)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> PythonStrings.assigned("X = '''open", "X", 1));
    }

    @Test
    void percentFormattingFillsKeysAndRejectsWhatPythonWould() {
        assertEquals("two 2%", PythonStrings.format("two %(N)d%%", Map.of("N", 2)));
        assertEquals("no value for %(M)", assertThrows(IllegalArgumentException.class,
                () -> PythonStrings.format("%(M)s", Map.of("N", 2))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> PythonStrings.format("printf(\"%d\")", Map.of()));
    }
}
