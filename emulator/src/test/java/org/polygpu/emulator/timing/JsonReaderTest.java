package org.polygpu.emulator.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReaderTest {
    @Test
    void readsEveryKindOfValue() {
        Object v = JsonReader.parse("{\"a\": [1, -2.5e3, true, false, null], \"b\": \"x\\\"\\u0041\\n\", \"c\": {}}",
                "t");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("a", Arrays.asList(1.0, -2500.0, true, false, null));
        expected.put("b", "x\"A\n");
        expected.put("c", Map.of());
        assertEquals(expected, v);
        assertEquals(List.of(), JsonReader.parse(" [ ] ", "t"));
    }

    @Test
    void rejectsWhatIsNotJson() {
        for (List<String> c : List.of(
                List.of("{\"a\": 1, \"a\": 2}", "t: not valid JSON at line 1, column 10: duplicate key \"a\""),
                List.of("{\"a\": 01}", "t: not valid JSON at line 1, column 7: expected a value"),
                List.of("[1] x", "t: not valid JSON at line 1, column 5: unexpected text after the JSON value"),
                List.of("{\"a\" 1}", "t: not valid JSON at line 1, column 6: expected ':'"),
                List.of("[1 2]", "t: not valid JSON at line 1, column 4: expected ',' or ']'"),
                List.of("\"abc", "t: not valid JSON at line 1, column 5: unterminated string"),
                List.of("", "t: not valid JSON at line 1, column 1: unexpected end of the text"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> JsonReader.parse(c.get(0), "t"), c.get(0));
            assertEquals(c.get(1), e.getMessage());
        }
    }
}
