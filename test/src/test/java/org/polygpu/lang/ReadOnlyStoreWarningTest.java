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
}
