package org.polygpu.lang.parser;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.polygpu.array.ElementType;

/**
 * Element type names as polygpu code spells them: C names ({@code int}, {@code unsigned char}, {@code unsigned}) and
 * NIDL/NFI names ({@code sint32}, {@code uint8}, {@code bool}, ...), GrCUDA's character and {@code long long} ones
 * among them ({@code char8}, {@code char16}, {@code char32}, {@code wchar}, {@code sll64}, {@code ull64}, each the
 * element type of its size and signedness).
 */
public final class TypeNames {
    private static final Map<String, ElementType> NAMES = names();

    private TypeNames() {
    }

    private static Map<String, ElementType> names() {
        Map<String, ElementType> m = new LinkedHashMap<>();
        for (ElementType t : ElementType.values()) {
            m.put(t.cName(), t);
        }
        m.put("unsigned", ElementType.UINT);
        m.put("sint8", ElementType.CHAR);
        m.put("uint8", ElementType.UCHAR);
        m.put("sint16", ElementType.SHORT);
        m.put("uint16", ElementType.USHORT);
        m.put("sint32", ElementType.INT);
        m.put("uint32", ElementType.UINT);
        m.put("sint64", ElementType.LONG);
        m.put("uint64", ElementType.ULONG);
        m.put("char8", ElementType.UCHAR);
        m.put("char16", ElementType.USHORT);
        m.put("char32", ElementType.UINT);
        m.put("wchar", ElementType.INT);
        m.put("sll64", ElementType.LONG);
        m.put("ull64", ElementType.ULONG);
        return m;
    }

    /**
     * The type named {@code name} (spaces normalised, case-insensitive).
     *
     * @throws IllegalArgumentException listing the valid names
     */
    public static ElementType elementType(String name) {
        ElementType t = NAMES.get(name.trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT));
        if (t == null) {
            throw new IllegalArgumentException("unknown element type '" + name + "'; valid types: "
                    + String.join(", ", NAMES.keySet()));
        }
        return t;
    }

    /** Whether {@code word} starts a type name ({@code unsigned} or a one-word name). */
    static boolean startsType(String word) {
        return NAMES.containsKey(word) || word.equals("unsigned");
    }
}
