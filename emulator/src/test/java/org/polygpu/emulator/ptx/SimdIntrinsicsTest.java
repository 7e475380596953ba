package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntBinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * CUDA's SIMD intrinsics on bytes and halves ({@code __vadd2}, {@code __vabsdiffu4}, {@code __vsadu4}, ...): NVRTC
 * writes them with {@code vabsdiff2/4} on every architecture and with sm_90's packed {@code add.u16x2},
 * {@code min.s16x2}, ... for compute_90, so all three architectures must agree, and a selection is checked against
 * Java references. Skipped without NVRTC.
 */
class SimdIntrinsicsTest {
    private static final List<String> UNARY = List.of("vabs2", "vabsss2", "vneg2", "vnegss2", "vabs4", "vabsss4",
            "vneg4", "vnegss4");
    private static final List<String> BINARY = binary();
    private static final int THREADS = 64;

    private static List<String> binary() {
        List<String> two = List.of("vabsdiffs2", "vabsdiffu2", "vadd2", "vaddss2", "vaddus2", "vavgs2", "vavgu2",
                "vcmpeq2", "vcmpges2", "vcmpgeu2", "vcmpgts2", "vcmpgtu2", "vcmples2", "vcmpleu2", "vcmplts2",
                "vcmpltu2", "vcmpne2", "vhaddu2", "vmaxs2", "vmaxu2", "vmins2", "vminu2", "vsads2", "vsadu2",
                "vseteq2", "vsetges2", "vsetgeu2", "vsetgts2", "vsetgtu2", "vsetles2", "vsetleu2", "vsetlts2",
                "vsetltu2", "vsetne2", "vsub2", "vsubss2", "vsubus2");
        List<String> all = new ArrayList<>(two);
        two.forEach(n -> all.add(n.replace('2', '4')));
        return all;
    }

    private static String source() {
        StringBuilder s = new StringBuilder("extern \"C\" __global__ void simd(unsigned *out, const unsigned *in) {\n"
                + "    int i = threadIdx.x;\n    unsigned v = in[i], w = in[i + blockDim.x];\n"
                + "    unsigned *o = out + i * " + (UNARY.size() + BINARY.size()) + ";\n");
        int k = 0;
        for (String n : UNARY) {
            s.append("    o[").append(k++).append("] = __").append(n).append("(v);\n");
        }
        for (String n : BINARY) {
            s.append("    o[").append(k++).append("] = __").append(n).append("(v, w);\n");
        }
        return s.append("}\n").toString();
    }

    private static int[] run(String arch, int[] in) {
        PtxModule m = CudaCompiler.compile(source(), arch);
        int width = UNARY.size() + BINARY.size();
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * width * THREADS);
            d.launch(m, "simd", 1, THREADS, out, d.ints(in));
            return d.intsAt(out, width * THREADS);
        }
    }

    @Test
    void everyArchitectureComputesTheSameAndMatchesJavaReferences() {
        assertTrue(CudaCompiler.ptx(source(), "compute_90").contains("add.u16x2"), "compute_90 uses packed pairs");
        Random random = new Random(9);
        int[] in = new int[2 * THREADS];
        for (int i = 0; i < in.length; i++) {
            in[i] = i % 7 == 0 ? 0x80007FFF : i % 5 == 0 ? in[(i + THREADS) % in.length] : random.nextInt();
        }
        int[] volta = run("compute_70", in);
        assertArrayEquals(volta, run("compute_80", in), "compute_80 against compute_70");
        assertArrayEquals(volta, run("compute_90", in), "compute_90 against compute_70");
        int width = UNARY.size() + BINARY.size();
        for (int t = 0; t < THREADS; t++) {
            int v = in[t];
            int w = in[t + THREADS];
            check(volta, t * width, "vadd2", v, w, (x, y) -> lanes(x, y, 16, false, Integer::sum));
            check(volta, t * width, "vsub4", v, w, (x, y) -> lanes(x, y, 8, false, (p, q) -> p - q));
            check(volta, t * width, "vmins2", v, w, (x, y) -> lanes(x, y, 16, true, Math::min));
            check(volta, t * width, "vmaxu2", v, w, (x, y) -> lanes(x, y, 16, false, Math::max));
            check(volta, t * width, "vabsdiffu4", v, w, (x, y) -> lanes(x, y, 8, false, (p, q) -> Math.abs(p - q)));
            check(volta, t * width, "vabsdiffs2", v, w, (x, y) -> lanes(x, y, 16, true, (p, q) -> Math.abs(p - q)));
            check(volta, t * width, "vsadu4", v, w, (x, y) -> sad(x, y, 8));
            check(volta, t * width, "vsadu2", v, w, (x, y) -> sad(x, y, 16));
        }
    }

    private static void check(int[] results, int base, String name, int v, int w, IntBinaryOperator reference) {
        int index = UNARY.size() + BINARY.indexOf(name);
        assertEquals(reference.applyAsInt(v, w), results[base + index], name + "(" + Integer.toHexString(v) + ", "
                + Integer.toHexString(w) + ")");
    }

    private static int lanes(int x, int y, int bits, boolean signed, IntBinaryOperator op) {
        int out = 0;
        for (int shift = 0; shift < 32; shift += bits) {
            out |= (op.applyAsInt(field(x, shift, bits, signed), field(y, shift, bits, signed)) & ((1 << bits) - 1))
                    << shift;
        }
        return out;
    }

    private static int sad(int x, int y, int bits) {
        int sum = 0;
        for (int shift = 0; shift < 32; shift += bits) {
            sum += Math.abs(field(x, shift, bits, false) - field(y, shift, bits, false));
        }
        return sum;
    }

    private static int field(int v, int shift, int bits, boolean signed) {
        int left = v << (32 - shift - bits);
        return signed ? left >> (32 - bits) : left >>> (32 - bits);
    }
}
