package org.polygpu.mangling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Symbol names of C++ functions as g++ gives them (each expected string is g++'s output). */
class ItaniumManglerTest {
    private static final CxxType I = CxxType.INT;
    private static final CxxType F = CxxType.FLOAT;

    @Test
    void aFunctionWithoutParametersTakesVoid() {
        assertEquals("_Z1fv", ItaniumMangler.mangle("f", List.of()));
    }

    @Test
    void fundamentalTypesAreNeverSubstituted() {
        assertEquals("_Z12cxx_inc_hostiiPfPKii", ItaniumMangler.mangle("cxx_inc_host", List.of(CxxParameter.value(I),
                CxxParameter.value(I), CxxParameter.pointer(F), CxxParameter.pointerToConst(I),
                CxxParameter.value(I))));
        assertEquals("_Z20cxx_inc_inplace_hostiiPii", ItaniumMangler.mangle("cxx_inc_inplace_host",
                List.of(CxxParameter.value(I), CxxParameter.value(I), CxxParameter.pointer(I), CxxParameter.value(I))));
    }

    @Test
    void aPointerToConstCountsTwiceInTheSubstitutions() {
        assertEquals("_Z1hPKiPiS0_S1_PKcS3_ayxb", ItaniumMangler.mangle("h", List.of(CxxParameter.pointerToConst(I),
                CxxParameter.pointer(I), CxxParameter.pointerToConst(I), CxxParameter.pointer(I),
                CxxParameter.pointerToConst(CxxType.CHAR), CxxParameter.pointerToConst(CxxType.CHAR),
                CxxParameter.value(CxxType.SIGNED_CHAR), CxxParameter.value(CxxType.UNSIGNED_LONG_LONG),
                CxxParameter.value(CxxType.LONG_LONG), CxxParameter.value(CxxType.BOOL))));
    }

    @Test
    void namespacePrefixesAreSubstitutionsToo() {
        assertEquals("_ZN2aa2bb12cxx_inc_hostEPiiii", ItaniumMangler.mangle("aa::bb::cxx_inc_host",
                List.of(CxxParameter.pointer(I), CxxParameter.value(I), CxxParameter.value(I), CxxParameter.value(I))));
        assertEquals("_ZN2aa2bb1gEPKfPfS2_PiS4_", ItaniumMangler.mangle("::aa::bb::g", List.of(
                CxxParameter.pointerToConst(F), CxxParameter.pointer(F), CxxParameter.pointerToConst(F),
                CxxParameter.pointer(I), CxxParameter.pointer(I))));
    }

    @Test
    void referencesPastTenAreBase36() {
        List<CxxParameter> params = new java.util.ArrayList<>();
        for (CxxType t : List.of(CxxType.INT, CxxType.UNSIGNED_INT, CxxType.LONG, CxxType.UNSIGNED_LONG, F,
                CxxType.DOUBLE, CxxType.CHAR, CxxType.SIGNED_CHAR, CxxType.UNSIGNED_CHAR, CxxType.SHORT,
                CxxType.UNSIGNED_SHORT, CxxType.BOOL, CxxType.LONG_LONG)) {
            params.add(CxxParameter.pointer(t));
        }
        params.addAll(List.of(CxxParameter.pointerToConst(I), CxxParameter.pointer(CxxType.UNSIGNED_SHORT),
                CxxParameter.pointer(CxxType.BOOL), CxxParameter.pointer(CxxType.LONG_LONG),
                CxxParameter.pointerToConst(I)));
        assertEquals("_Z4manyPiPjPlPmPfPdPcPaPhPsPtPbPxPKiS9_SA_SB_SD_", ItaniumMangler.mangle("many", params));
        assertEquals("S10_", ItaniumMangler.reference(37));
    }

    @Test
    void unsupportedNamesAreRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ItaniumMangler.mangle("std::f", List.of()))
                .getMessage().contains("namespace std"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ItaniumMangler.mangle("f<int>", List.of()))
                .getMessage().contains("'f<int>'"));
        assertThrows(IllegalArgumentException.class, () -> ItaniumMangler.mangle("a::", List.of()));
    }

    @Test
    void typesAreNamedInNidlOrC() {
        assertEquals(CxxType.SIGNED_CHAR, CxxType.named("sint8"));
        assertEquals(CxxType.CHAR, CxxType.named("char"));
        assertEquals(CxxType.UNSIGNED_LONG_LONG, CxxType.named("ull64"));
        assertEquals(CxxType.UNSIGNED_INT, CxxType.named("unsigned  int"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CxxType.named("int128")).getMessage()
                .contains("sll64"));
    }
}
