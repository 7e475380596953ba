package org.polygpu.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The stores through pointer parameters, found in PTX as NVRTC writes it. */
class ParameterStoresTest {
    /**
     * NVRTC 12.9's PTX for {@code inc(const float *in, float *out, int n)}: {@code out[i] = in[i] + 1}, then
     * {@code ((float *) in)[i] = 3}, {@code atomicAdd((float *) in + 1, 1.0f)} and an inlined device function storing
     * to {@code in + 2}.
     */
    private static final String PTX = """
            .version 8.8
            .target sm_70
            .address_size 64

            \t// .globl\tinc

            .visible .entry inc(
            \t.param .u64 inc_param_0,
            \t.param .u64 inc_param_1,
            \t.param .u32 inc_param_2
            )
            {
            \t.reg .pred \t%p<2>;
            \t.reg .b64 \t%rd<9>;

            \tld.param.u64 \t%rd1, [inc_param_0];
            \tld.param.u64 \t%rd2, [inc_param_1];
            \tld.param.u32 \t%r2, [inc_param_2];
            \tmov.u32 \t%r5, %tid.x;
            \tsetp.ge.s32 \t%p1, %r1, %r2;
            \t@%p1 bra \t$L__BB0_2;

            \tcvta.to.global.u64 \t%rd3, %rd1;
            \tcvta.to.global.u64 \t%rd4, %rd2;
            \tmul.wide.s32 \t%rd5, %r1, 4;
            \tadd.s64 \t%rd6, %rd3, %rd5;
            \tld.global.f32 \t%f1, [%rd6];
            \tadd.f32 \t%f2, %f1, 0f3F800000;
            \tadd.s64 \t%rd7, %rd4, %rd5;
            \tst.global.f32 \t[%rd7], %f2;
            \tmov.u32 \t%r6, 1077936128;
            \tst.global.u32 \t[%rd6], %r6;
            \tadd.s64 \t%rd8, %rd3, 4;
            \tatom.global.add.f32 \t%f3, [%rd8], 0f3F800000;
            \tst.global.u32 \t[%rd3+8], %r7;

            $L__BB0_2:
            \tret;

            }
            """;

    @Test
    void findsStoresAtomicsAndOffsetsThroughEachParameter() {
        List<ParameterStores.Store> stores = ParameterStores.of(PTX, "inc");
        assertEquals(List.of(1, 0, 0, 0), stores.stream().map(ParameterStores.Store::parameter).toList());
        assertTrue(stores.get(2).instruction().startsWith("atom.global.add.f32"));
        assertEquals(35, stores.get(3).line());
    }

    @Test
    void aLoadedValueIsNotThePointerItCameFrom() {
        String ptx = PTX.replace("st.global.u32 \t[%rd6], %r6;", "st.global.f32 \t[%rd7], %f1;")
                .replace("atom.global.add.f32 \t%f3, [%rd8]", "atom.global.add.f32 \t%f3, [%rd7]")
                .replace("[%rd3+8]", "[%rd4+8]");
        assertEquals(List.of(1, 1, 1, 1),
                ParameterStores.of(ptx, "inc").stream().map(ParameterStores.Store::parameter).toList());
    }

    @Test
    void aKernelNameFindsItsEntry() {
        assertEquals(java.util.Optional.of("inc"), ParameterStores.entry(PTX, "inc"));
        assertEquals(java.util.Optional.of("inc"), ParameterStores.entry(PTX, "anything<int>"));
        String two = PTX + PTX.replace(".entry inc(", ".entry _Z3decPfi(");
        assertEquals(java.util.Optional.of("_Z3decPfi"), ParameterStores.entry(two, "dec"));
        assertEquals(java.util.Optional.empty(), ParameterStores.entry(two, "other"));
    }

    @Test
    void sharedAndLocalStoresAndOtherEntriesDoNotCount() {
        String ptx = PTX.replace("st.global.f32 \t[%rd7]", "st.shared.f32 \t[%rd7]");
        assertEquals(3, ParameterStores.of(ptx, "inc").size());
        assertEquals(List.of(), ParameterStores.of(PTX, "other"));
    }
}
