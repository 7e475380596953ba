package org.polygpu.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class ByteSizeTest {
    @Test
    void plainBytesAndBinaryUnitsAreRead() {
        assertEquals(List.of(1048576L, 64L << 20, 1L << 30, 64L << 10, 2L << 40, 3L << 20, 512L),
                List.of(ByteSize.parse("X", "1048576"), ByteSize.parse("X", "64MiB"), ByteSize.parse("X", "1GiB"),
                        ByteSize.parse("X", "64kib"), ByteSize.parse("X", " 2 TiB "), ByteSize.parse("X", "3M"),
                        ByteSize.parse("X", "512B")));
    }

    @Test
    void badSizesNameTheOptionAndTheFormsAccepted() {
        for (String bad : List.of("", "MiB", "0", "-1MiB", "1.5GiB", "lots", "5PiB", "4294967297GiB")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ByteSize.parse("EmulatedDeviceMemory", bad), bad);
            assertEquals("invalid value '" + bad + "' for option EmulatedDeviceMemory; expected a size of at least 1 "
                    + "byte and at most 2^62 bytes, in bytes (1048576) or with a unit (64KiB, 64MiB, 1GiB)",
                    e.getMessage());
        }
    }

    @Test
    void sizesAreFormattedInTheLargestUnitThatDividesThem() {
        assertEquals(List.of("64MiB", "1GiB", "1000B", "3KiB", "16GiB"), List.of(ByteSize.format(64L << 20),
                ByteSize.format(1L << 30), ByteSize.format(1000), ByteSize.format(3072), ByteSize.format(16L << 30)));
    }
}
