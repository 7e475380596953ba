package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.polygpu.backend.BackendException;

/** Parsing and decoding of NVRTC's PTX, and errors that name the construct and line. */
class PtxParserTest {
    private static final String HEADER = ".version 8.8\n.target sm_70\n.address_size 64\n";

    @Test
    void everyFixtureParsesWithItsKernels() {
        assertEquals(List.of("vadd", "square", "vadd4", "oob_read", "spin"),
                TestDevice.module("vector_add.ptx").kernelNames());
        assertEquals(List.of("diverge", "indices", "call_func"), TestDevice.module("control.ptx").kernelNames());
        assertEquals(List.of("block_sum", "reverse_dynamic", "shared_oob", "local_oob"),
                TestDevice.module("shared.ptx").kernelNames());
        assertEquals(List.of("shuffles", "votes", "warp_sum"), TestDevice.module("warp.ptx").kernelNames());
        assertEquals(List.of("global_atomics", "cas_add", "histogram"), TestDevice.module("atomics.ptx").kernelNames());
        assertEquals(List.of("conversions", "bits", "dscale", "module_data"),
                TestDevice.module("numeric.ptx").kernelNames());
        assertEquals(List.of("fast_math"), TestDevice.module("math.ptx").kernelNames());
        assertEquals(List.of("precise_math", "precise_double"), TestDevice.module("precise_math.ptx").kernelNames());
        assertEquals(List.of("bs"), TestDevice.module("blackscholes.ptx").kernelNames());
    }

    @Test
    void moduleDirectivesParametersAndLayouts() {
        PtxModule m = TestDevice.module("blackscholes.ptx");
        assertEquals("8.8", m.version());
        assertEquals("sm_70", m.target());
        PtxKernel bs = m.kernel("bs").orElseThrow();
        assertEquals(List.of(new PtxParam(0, "bs_param_0", PtxType.U64, 8, 0),
                new PtxParam(1, "bs_param_1", PtxType.U64, 8, 8), new PtxParam(2, "bs_param_2", PtxType.U32, 4, 16),
                new PtxParam(3, "bs_param_3", PtxType.F32, 4, 20), new PtxParam(4, "bs_param_4", PtxType.F32, 4, 24),
                new PtxParam(5, "bs_param_5", PtxType.F32, 4, 28), new PtxParam(6, "bs_param_6", PtxType.F32, 4, 32)),
                bs.params());
        assertEquals(36, bs.paramBytes());
        PtxModule shared = TestDevice.module("shared.ptx");
        assertEquals(1024, shared.kernel("block_sum").orElseThrow().staticSharedBytes());
        assertEquals(0, shared.kernel("reverse_dynamic").orElseThrow().staticSharedBytes());
        assertEquals(32, shared.kernel("local_oob").orElseThrow().localBytes());
    }

    @Test
    void moduleVariablesWithInitialisers() {
        List<ModuleVariable> vars = TestDevice.module("numeric.ptx").variables();
        assertEquals(2, vars.size());
        assertEquals("table", vars.get(0).name());
        assertEquals(false, vars.get(0).constant());
        assertEquals(16, vars.get(0).size());
        assertArrayEquals(new byte[] {10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0, 40}, vars.get(0).init());
        assertEquals("coef", vars.get(1).name());
        assertEquals(true, vars.get(1).constant());
    }

    @Test
    void guardsSymbolOffsetsVectorsPackingAndLiterals() {
        String ptx = HEADER + """
                .global .align 8 .u32 data[4] = {1, 2, 3, 4};
                .visible .entry misc(.param .u64 out)
                {
                    .reg .pred %p<3>;
                    .reg .b32 %r<12>;
                    .reg .b64 %rd<6>;
                    ld.param.u64 %rd1, [out];
                    mov.u32 %r1, %tid.x;
                    setp.lt.u32 %p1, %r1, 16;
                    mov.u32 %r2, 7;
                    @!%p1 mov.u32 %r2, 9;
                    ld.global.v2.u32 {%r3, %r4}, [data+8];
                    mov.b64 %rd2, {%r3, %r4};
                    mov.b64 {%r5, %r6}, %rd2;
                    lop3.b32 %r7, %r1, 0xF0, 0x0F, 0x96;
                    shf.l.wrap.b32 %r8, %r1, %r3, 4;
                    mov.u32 %r9, 010;
                    shr.u64 %rd5, %rd2, 32;
                    cvt.u32.u64 %r10, %rd5;
                    mul.wide.u32 %rd3, %r1, 32;
                    add.s64 %rd4, %rd1, %rd3;
                    st.global.v4.u32 [%rd4], {%r2, %r3, %r4, %r5};
                    st.global.v4.u32 [%rd4+16], {%r6, %r7, %r8, %r9};
                    st.global.u32 [%rd4+28], %r10;
                    ret;
                }
                """;
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(32 * 32);
            d.launch(PtxModule.parse(ptx), "misc", 1, 32, out);
            int[] o = d.intsAt(out, 8 * 32);
            for (int t = 0; t < 32; t++) {
                int[] expected = {t < 16 ? 7 : 9, 3, 4, 3, 4, t ^ 0xFF, 3 << 4, 4};
                assertArrayEquals(expected, java.util.Arrays.copyOfRange(o, 8 * t, 8 * t + 8), "thread " + t);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "tex.1d.v4.f32.s32 {%r1, %r1, %r1, %r1}, [tex, {%r1}];|PTX line 8: unsupported instruction "
            + "'tex.1d.v4.f32.s32' (cannot parse its operands: expected ']' but found ',')",
        "suld.b.1d.b32.trap {%r1}, [%rd1, {%r1}];|PTX line 8: unsupported instruction 'suld.b.1d.b32.trap'",
        "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 %r1, %r1, %r1, %r1;|PTX line 8: unsupported instruction "
            + "'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32' (opcode mma is not supported by the emulator)",
        "add.foo.s32 %r1, %r1, 1;|PTX line 8: unsupported instruction 'add.foo.s32' (modifier .foo is not "
            + "supported): add.foo.s32 %r1, %r1, 1;",
        "add.s32 %r1, %q9, 1;|PTX line 8: unsupported instruction 'add.s32' (unknown register %q9): add.s32",
        "bra $L_nowhere;|PTX line 8: unknown label '$L_nowhere'",
        ".maxwell 3;|PTX line 8: unsupported directive or statement '.maxwell': .maxwell 3;",
        "atom.global.min.f16 %r1, [%rd1], %r1;|PTX line 8: unsupported instruction 'atom.global.min.f16' (atomic min "
            + "on .f16)"})
    void unsupportedOrMalformedCodeIsAnErrorNamingTheLine(String statement, String message) {
        String ptx = HEADER + ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
                + statement + "\nret;\n}\n";
        BackendException e = assertThrows(BackendException.class, () -> PtxModule.parse(ptx));
        assertEquals(true, e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void recursionIsRefused() {
        String ptx = HEADER + ".func f()\n{\ncall.uni f, ();\nret;\n}\n"
                + ".visible .entry k()\n{\ncall.uni f, ();\nret;\n}\n";
        BackendException e = assertThrows(BackendException.class, () -> PtxModule.parse(ptx));
        assertEquals("PTX line 4: recursive call chain k -> f -> f is not supported by the emulator", e.getMessage());
    }

    @Test
    void unknownModuleDirectiveNamesItsLine() {
        BackendException e = assertThrows(BackendException.class, () -> PtxModule.parse(HEADER + "\n.texref t;\n"));
        assertEquals("PTX line 5: unsupported directive '.texref': .texref t;", e.getMessage());
    }
}
