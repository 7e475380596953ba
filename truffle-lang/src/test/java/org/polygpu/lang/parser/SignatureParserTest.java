package org.polygpu.lang.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.polygpu.array.Access;
import org.polygpu.array.ElementType;
import org.polygpu.sched.Parameter;

class SignatureParserTest {
    @Test
    void nidlSignatureGivesNamesDirectionsAndTypes() {
        SignatureParser.Signature s = SignatureParser.nidl(
                "saxpy(x: in pointer float, y: out pointer float, z: inout pointer double, n: sint32, k: uint64)");
        assertEquals("saxpy", s.name());
        assertEquals(List.of(Parameter.pointer("x", ElementType.FLOAT, Access.READ),
                Parameter.pointer("y", ElementType.FLOAT, Access.WRITE),
                Parameter.pointer("z", ElementType.DOUBLE, Access.READ_WRITE),
                Parameter.scalar("n", ElementType.INT), Parameter.scalar("k", ElementType.ULONG)), s.parameters());
    }

    @Test
    void templateNamesAndEmptyListsAreAccepted() {
        assertEquals("inc_kernel<int>", SignatureParser.nidl("inc_kernel< int >(a: pointer sint32)").name());
        assertEquals(Access.READ_WRITE, SignatureParser.nidl("k(a: pointer uint8)").parameters().get(0).access());
        assertEquals(List.of(), SignatureParser.nidl("noargs()").parameters());
    }

    @Test
    void legacyListMarksConstPointersReadOnly() {
        assertEquals(List.of(Parameter.pointer("arg1", null, Access.READ_WRITE),
                Parameter.pointer("arg2", null, Access.READ), Parameter.pointer("arg3", null, Access.READ),
                Parameter.scalar("arg4", ElementType.INT), Parameter.scalar("arg5", ElementType.DOUBLE)),
                SignatureParser.legacy("pointer, const pointer, pointer const, sint32, double"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "k(x: in pointer); expected the element type of pointer 'x', found ')'",
        "k(x pointer float); expected ':' after parameter 'x'",
        "k(x: sint33); unknown element type 'sint33'",
        "k(x: in float); expected 'pointer' after 'in'",
        "k(x: float, x: float); parameter 'x' is declared twice",
        "k(x: float; expected ')' to close the parameter list",
        "k<int(x: float); template arguments are not closed"})
    void badNidlSignaturesSayWhatIsWrong(String signature, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SignatureParser.nidl(signature));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertTrue(e.getMessage().contains("\"" + signature + "\""), "quotes the signature: " + e.getMessage());
    }

    @Test
    void typeNamesCoverCAndNidlSpellings() {
        assertEquals(ElementType.UCHAR, TypeNames.elementType("unsigned  char"));
        assertEquals(ElementType.UINT, TypeNames.elementType("unsigned"));
        assertEquals(ElementType.SHORT, TypeNames.elementType("sint16"));
        assertEquals(ElementType.BOOL, TypeNames.elementType("BOOL"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TypeNames.elementType("half"));
        assertTrue(e.getMessage().contains("valid types: bool, char"), e.getMessage());
    }
}
