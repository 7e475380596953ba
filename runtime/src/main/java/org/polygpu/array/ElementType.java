package org.polygpu.array;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The element type of a device array, with its C name and size in bytes. */
public enum ElementType {
    BOOL("bool", 1),
    CHAR("char", 1),
    UCHAR("unsigned char", 1),
    SHORT("short", 2),
    USHORT("unsigned short", 2),
    INT("int", 4),
    UINT("unsigned int", 4),
    LONG("long", 8),
    ULONG("unsigned long", 8),
    FLOAT("float", 4),
    DOUBLE("double", 8);

    private final String cName;
    private final int bytes;

    ElementType(String cName, int bytes) {
        this.cName = cName;
        this.bytes = bytes;
    }

    /** The type as C spells it, e.g. {@code unsigned int}. */
    public String cName() {
        return cName;
    }

    public int bytes() {
        return bytes;
    }

    /**
     * The type named by its C name (case-insensitive, single spaces).
     *
     * @throws IllegalArgumentException listing the valid names
     */
    public static ElementType fromCName(String name) {
        String wanted = name.trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        for (ElementType t : values()) {
            if (t.cName.equals(wanted)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown element type '" + name + "'; valid types: "
                + Arrays.stream(values()).map(ElementType::cName).collect(Collectors.joining(", ")));
    }
}
