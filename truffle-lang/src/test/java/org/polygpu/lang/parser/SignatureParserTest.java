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

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "mergeSortSharedKernel<1U>(d: inout pointer uint32); mergeSortSharedKernel<1U>",
        "k<2UL, 0x1Fu, -3ll>(); k<2UL,0x1Fu,-3ll>",
        "scale<1.0f, 2.5e-3F>(x: pointer float); scale<1.0f,2.5e-3F>",
        "flag< true >(); flag<true>",
        "f<A<int>, 3>(x: pointer float); f<A<int>,3>",
        "f<A<B<int>>>(); f<A<B<int>>>",
        "ns::k<int>(x: pointer sint32); ns::k<int>",
        "::outer::inner::k<unsigned int, float*>(); ::outer::inner::k<unsigned int,float*>",
        "k<(1 > 0)>(); k<(1>0)>"})
    void templateArgumentsWithLiteralsNestingAndNamespacesFormTheName(String signature, String name) {
        assertEquals(name, SignatureParser.nidl(signature).name());
    }

    @Test
    void aNumberWithAnUnknownSuffixIsStillMalformed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SignatureParser.nidl("k<1Q>()"));
        assertTrue(e.getMessage().contains("malformed number '1Q'"), e.getMessage());
        assertEquals(List.of(Parameter.scalar("n", ElementType.UINT)),
                SignatureParser.nidl("k<1U>(n: uint32)").parameters());
    }

    @Test
    void legacyListMarksConstPointersReadOnly() {
        assertEquals(List.of(Parameter.pointer("arg1", null, Access.READ_WRITE),
                Parameter.pointer("arg2", null, Access.READ), Parameter.pointer("arg3", null, Access.READ),
                Parameter.scalar("arg4", ElementType.INT), Parameter.scalar("arg5", ElementType.DOUBLE)),
                SignatureParser.legacy("pointer, const pointer, pointer const, sint32, double"));
    }

    @Test
    void legacySignatureMayHaveParenthesesAndAReturnType() {
        List<Parameter> expected = List.of(Parameter.scalar("arg1", ElementType.LONG),
                Parameter.pointer("arg2", null, Access.READ), Parameter.pointer("arg3", null, Access.READ_WRITE));
        assertEquals(expected, SignatureParser.legacy("(sint64, pointer const, pointer): void"));
        assertEquals(expected, SignatureParser.legacy("(sint64, const pointer, pointer)"));
        assertEquals(List.of(), SignatureParser.legacy("(): void"));
        assertEquals(expected.subList(0, 2), SignatureParser.legacy("(sint64, pointer const): sint32"),
                "GrCUDA's parser accepts a return type and a kernel ignores it");
        assertEquals(SignatureParser.nidl("k(x: in pointer float, n: sint32)"),
                SignatureParser.nidl("k(x: in pointer float, n: sint32): sint32"), "a NIDL one is ignored too");
        assertThrows(IllegalArgumentException.class, () -> SignatureParser.nidl("k(n: sint32): nothing"));
        assertThrows(IllegalArgumentException.class, () -> SignatureParser.legacy("(sint64, pointer"));
        SignatureParser.LegacySignature host = SignatureParser.legacyFunction(
                "(sint32, sint32, pointer, pointer, sint32): sint32");
        assertEquals(ElementType.INT, host.returnType());
        assertEquals(5, host.parameters().size());
        assertEquals(null, SignatureParser.legacyFunction("(pointer): void").returnType());
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
        assertEquals(ElementType.LONG, TypeNames.elementType("sll64"));
        assertEquals(ElementType.ULONG, TypeNames.elementType("ull64"));
        assertEquals(ElementType.INT, TypeNames.elementType("wchar"));
        assertEquals(ElementType.UCHAR, TypeNames.elementType("char8"));
        assertEquals(ElementType.USHORT, TypeNames.elementType("char16"));
        assertEquals(ElementType.UINT, TypeNames.elementType("char32"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TypeNames.elementType("half"));
        assertTrue(e.getMessage().contains("valid types: bool, char"), e.getMessage());
    }
}
