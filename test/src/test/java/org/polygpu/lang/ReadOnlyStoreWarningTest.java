package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/** {@code buildkernel} warns when the PTX stores through a pointer the signature declares read-only. */
class ReadOnlyStoreWarningTest {
    private static final String SOURCE = """
            __device__ void put(float *p, float v) { *p = v; }
            extern "C" __global__ void scale(const float *in, float *out, float *tmp, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    out[i] = 2.0f * in[i];
                    tmp[i] = in[i];
                    put((float *) in + i, 0.0f);
                }
            }
            template <typename T> __global__ void add(T *x, T *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) atomicAdd(&x[i], y[i]);
            }
            """;

    /** What building {@code signature} (optionally a name expression) prints on the error stream. */
    private static String warnings(String signature) {
        Polyglot.assumeNvrtc();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = Context.newBuilder("polygpu").allowAllAccess(true).err(err)
                .option("engine.WarnInterpreterOnly", "false").option("polygpu.Backend", "emulated").build()) {
            Value cu = Polyglot.eval(c, "CU");
            cu.getMember("buildkernel").execute(SOURCE, signature);
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aStoreThroughAnInParameterIsReported() {
        String out = warnings("scale(in: in pointer float, out: out pointer float, tmp: in pointer float, n: sint32)");
        assertTrue(out.contains("kernel 'scale' stores through parameter 'in', which its signature declares "
                + "read-only (in/const): st.global."), out);
        assertTrue(out.contains("kernel 'scale' stores through parameter 'tmp'"), out);
        assertEquals(2, out.lines().filter(l -> l.contains("warning")).count(), out);
    }

    @Test
    void anAtomicThroughAnInParameterOfATemplateIsReported() {
        String out = warnings("add<float>(x: in pointer float, y: in pointer float, n: sint32)");
        assertTrue(out.contains("kernel 'add<float>' stores through parameter 'x'"), out);
        assertTrue(out.contains("atom.global.add.f32"), out);
        assertTrue(!out.contains("parameter 'y'"), out);
    }

    @Test
    void honestSignaturesGetNoWarning() {
        assertEquals("", warnings("scale(in: inout pointer float, out: out pointer float, tmp: out pointer float, "
                + "n: sint32)").lines().filter(l -> l.contains("warning")).reduce("", String::concat));
        assertEquals("", warnings("add<float>(x: inout pointer float, y: in pointer float, n: sint32)").lines()
                .filter(l -> l.contains("warning")).reduce("", String::concat));
    }

    /**
     * A pointer declared {@code const} that the kernel writes (as GrCUDA's multi-GPU CG benchmark declares its
     * output) is treated as {@code inout}: the write reaches the host and the kernels after it.
     */
    @Test
    void aConstPointerWrittenToIsTreatedAsInout() {
        Polyglot.assumeNvrtc();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = Context.newBuilder("polygpu").allowAllAccess(true).err(err)
                .option("engine.WarnInterpreterOnly", "false").option("polygpu.Backend", "emulated").build()) {
            Value cu = Polyglot.eval(c, "CU");
            Value scale = cu.getMember("buildkernel").execute(SOURCE, "scale", "const pointer, const pointer, "
                    + "const pointer, sint32");
            int n = 100;
            Value in = cu.invokeMember("DeviceArray", "float", n);
            Value out = cu.invokeMember("DeviceArray", "float", n);
            Value tmp = cu.invokeMember("DeviceArray", "float", n);
            for (int i = 0; i < n; i++) {
                in.setArrayElement(i, i + 1);
            }
            scale.execute(4, 32).execute(in, out, tmp, n);
            scale.execute(4, 32).execute(out, tmp, in, n);
            for (int i = 0; i < n; i++) {
                assertEquals(2f * (i + 1), in.getArrayElement(i).asFloat(), "in[" + i + "]");
                assertEquals(0f, out.getArrayElement(i).asFloat(), "out[" + i + "], zeroed through a const pointer");
                assertEquals(4f * (i + 1), tmp.getArrayElement(i).asFloat(), "tmp[" + i + "]");
            }
            assertTrue(scale.toString().contains("arg1: inout pointer"), scale.toString());
        }
        String warnings = err.toString(StandardCharsets.UTF_8);
        assertTrue(warnings.contains("stores through parameter 'arg2'") && warnings.contains("treated as inout"),
                warnings);
    }
}
