package org.polygpu.array;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The element type of a device array, with its C name and size in bytes. */
public enum ElementType {
    BOOL("bool", 1, false),
    CHAR("char", 1, false),
    UCHAR("unsigned char", 1, false),
    SHORT("short", 2, false),
    USHORT("unsigned short", 2, false),
    INT("int", 4, false),
    UINT("unsigned int", 4, false),
    LONG("long", 8, false),
    ULONG("unsigned long", 8, false),
    FLOAT("float", 4, true),
    DOUBLE("double", 8, true);

    private final String cName;
    private final int bytes;
    private final boolean floatingPoint;

    ElementType(String cName, int bytes, boolean floatingPoint) {
        this.cName = cName;
        this.bytes = bytes;
        this.floatingPoint = floatingPoint;
    }

    /** The type as C spells it, e.g. {@code unsigned int}. */
    public String cName() {
        return cName;
    }

    public int bytes() {
        return bytes;
    }

    public boolean isFloatingPoint() {
        return floatingPoint;
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
