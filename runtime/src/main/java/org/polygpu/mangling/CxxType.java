package org.polygpu.mangling;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A C++ fundamental type that a NIDL signature can name, with its Itanium ABI code ({@code int} is {@code i}).
 * Each has its NIDL name and its C spelling; {@code char}, {@code signed char} ({@code sint8}) and
 * {@code unsigned char} ({@code uint8}) are three distinct types in C++, as are {@code long} ({@code sint64}) and
 * {@code long long} ({@code sll64}).
 */
public enum CxxType {
    BOOL("bool", "bool", 'b'),
    CHAR("char", "char", 'c'),
    SIGNED_CHAR("sint8", "signed char", 'a'),
    UNSIGNED_CHAR("uint8", "unsigned char", 'h'),
    SHORT("sint16", "short", 's'),
    UNSIGNED_SHORT("uint16", "unsigned short", 't'),
    INT("sint32", "int", 'i'),
    UNSIGNED_INT("uint32", "unsigned int", 'j'),
    LONG("sint64", "long", 'l'),
    UNSIGNED_LONG("uint64", "unsigned long", 'm'),
    LONG_LONG("sll64", "long long", 'x'),
    UNSIGNED_LONG_LONG("ull64", "unsigned long long", 'y'),
    FLOAT("float", "float", 'f'),
    DOUBLE("double", "double", 'd');

    private final String nidlName;
    private final String cName;
    private final char code;

    CxxType(String nidlName, String cName, char code) {
        this.nidlName = nidlName;
        this.cName = cName;
        this.code = code;
    }

    /** The NIDL name, such as {@code sint32}. */
    public String nidlName() {
        return nidlName;
    }

    /** The type as C spells it, such as {@code unsigned int}. */
    public String cName() {
        return cName;
    }

    /** The one-letter code of the Itanium C++ ABI. */
    public char code() {
        return code;
    }

    /**
     * The type called {@code name} in NIDL ({@code sint32}) or C ({@code unsigned int}, {@code unsigned} alone too);
     * spaces are normalised and case is ignored.
     *
     * @throws IllegalArgumentException listing the valid names
     */
    public static CxxType named(String name) {
        String wanted = name.trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        if (wanted.equals("unsigned")) {
            return UNSIGNED_INT;
        }
        for (CxxType t : values()) {
            if (t.nidlName.equals(wanted) || t.cName.equals(wanted)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown type '" + name + "'; valid types: "
                + Arrays.stream(values()).map(CxxType::nidlName).collect(Collectors.joining(", ")));
    }
}
