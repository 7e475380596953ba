package org.polygpu.lang.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.ElementType;

/** Host function signatures and NIDL files in GrCUDA's forms. */
class HostSignatureParserTest {
    @Test
    void aCxxSignatureIsMangledWithItsNamespaceAndNidlTypes() {
        HostSignature s = HostSignatureParser.nidl("cxx aa::bb::f(x: in pointer sll64, y: out pointer ull64, "
                + "n: sint8, c: char, u: unsigned long long): uint32", true);
        assertEquals("aa::bb::f", s.name());
        assertEquals("f", s.simpleName());
        assertEquals("_ZN2aa2bb1fEPKxPyacy", s.symbol());
        assertEquals(ElementType.UINT, s.returnType());
        assertEquals(Access.READ, s.parameters().get(0).access());
        assertEquals(ElementType.LONG, s.parameters().get(0).type());
        assertEquals(ElementType.ULONG, s.parameters().get(4).type());
    }

    @Test
    void aCSignatureIsItsOwnSymbolAndVoidHasNoResult() {
        HostSignature s = HostSignatureParser.nidl("inc(a: inout pointer sint32, n: sint32): void", true);
        assertFalse(s.cxx());
        assertEquals("inc", s.symbol());
        assertNull(s.returnType());
        assertNull(HostSignatureParser.nidl("inc(a: pointer float)", true).returnType(), "no result is void");
        assertTrue(HostSignatureParser.isCxx("  cxx k(a: sint32)"));
        assertFalse(HostSignatureParser.isCxx("cxx_k(a: sint32)"));
    }

    @Test
    void legacyListsHaveOptionalParenthesesAndResult() {
        HostSignature s = HostSignatureParser.legacy("inc_host", "(sint32, sint32, pointer, const pointer, sint32): "
                + "sint32");
        assertEquals(List.of("arg1", "arg2", "arg3", "arg4", "arg5"), s.parameters().stream().map(p -> p.name())
                .toList());
        assertEquals(Access.READ_WRITE, s.parameters().get(2).access());
        assertEquals(Access.READ, s.parameters().get(3).access());
        assertEquals(ElementType.INT, s.returnType());
        assertEquals(2, HostSignatureParser.legacy("f", "pointer, double").parameters().size());
        IllegalArgumentException untyped = assertThrows(IllegalArgumentException.class,
                () -> new HostSignature("f", true, s.parameters(), null, null).symbol());
        assertTrue(untyped.getMessage().contains("does not give the types"), untyped.getMessage());
    }

    @Test
    void errorsQuoteTheSignatureAndColumn() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HostSignatureParser.nidl("f(x: in pointer float, x: sint32)", true));
        assertTrue(e.getMessage().contains("column 24") && e.getMessage().contains("declared twice"), e.getMessage());
        IllegalArgumentException kernel = assertThrows(IllegalArgumentException.class,
                () -> HostSignatureParser.nidl("cxx k(x: sint32): sint32", false));
        assertTrue(kernel.getMessage().contains("expected the end of the signature"), kernel.getMessage());
    }

    @Test
    void nidlFilesHoldScopesOfEachKind() {
        List<NidlFile.Declaration> d = NidlFile.parse("x.nidl", """
                kernels ns { k(a: inout pointer sint32, n: sint32) }
                ckernels { c(a: in pointer float) }
                // a comment
                hostfuncs outer::inner { h(n: sint64): double
                  g(): void }
                chostfuncs { ch(p: out pointer uint8): sint32 }
                """);
        assertEquals(List.of("ns::k", "c", "outer::inner::h", "outer::inner::g", "ch"),
                d.stream().map(x -> x.signature().name()).toList());
        assertEquals(List.of(true, true, false, false, false), d.stream().map(NidlFile.Declaration::kernel).toList());
        assertEquals("_ZN2ns1kEPii", d.get(0).signature().symbol());
        assertEquals("c", d.get(1).signature().symbol());
        assertEquals("_ZN5outer5inner1gEv", d.get(3).signature().symbol());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NidlFile.parse("y.nidl", "chostfuncs ns { f(): void }"));
        assertTrue(e.getMessage().contains("no namespace"), e.getMessage());
    }
}
