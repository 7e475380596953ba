package org.polygpu.emulator.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class JsonFieldsTest {
    private static JsonFields fields(String json) {
        return JsonFields.of(JsonReader.parse(json, "f.json"), "f.json");
    }

    @Test
    void readsNestedValuesByKey() {
        JsonFields f = fields("{\"n\": 3, \"o\": {\"x\": 0.5, \"s\": \"t\"}, \"z\": 0}");
        assertEquals(3, f.intCount("n"));
        JsonFields o = f.object("o");
        assertEquals(0.5, o.positive("x"));
        assertEquals("t", o.string("s"));
        assertEquals(0.0, f.nonNegative("z"));
        o.done();
        f.done();
    }

    @Test
    void namesTheKeyPathOfEachError() {
        JsonFields f = fields("{\"o\": {\"x\": -1, \"y\": 3}, \"big\": 3e9}");
        JsonFields o = f.object("o");
        assertEquals("f.json: 'o.x' must be greater than zero, got -1.0",
                assertThrows(IllegalArgumentException.class, () -> o.positive("x")).getMessage());
        assertEquals("f.json: missing key 'o.w'",
                assertThrows(IllegalArgumentException.class, () -> o.positive("w")).getMessage());
        assertEquals("f.json: unknown key 'o.y' (known keys here: x, w)",
                assertThrows(IllegalArgumentException.class, o::done).getMessage());
        assertEquals("f.json: 'big' must be at most 2147483647, got 3000000000",
                assertThrows(IllegalArgumentException.class, () -> f.intCount("big")).getMessage());
        assertEquals("f.json: expected a JSON object at the top level",
                assertThrows(IllegalArgumentException.class, () -> JsonFields.of(1.0, "f.json")).getMessage());
    }
}
