package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sticky faults as a program sees them: the next host access after a kernel faulted raises the fault once, whatever
 * it reads, and the exports are written at close even when a fault is pending or the program raised.
 */
class StickyFaultTest {
    /** As GrCUDA's ML benchmark does: the scores are written through a pointer the signature declares const. */
    private static final String SCORE = """
            extern "C" __global__ void score(const float *x, const float *scores, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) ((float *) scores)[i] = 2.0f * x[i];
            }""";
    private static final String OVERRUN = """
            extern "C" __global__ void overrun(float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i + 1000000] = 1.0f;
            }""";

    /** Runs the const-store program: returns the error of the first read of an unrelated array, or null. */
    private static PolyglotException constStore(Context c, Value[] scores) {
        Value cu = Polyglot.eval(c, "CU");
        Value score = cu.invokeMember("buildkernel", SCORE, "score", "const pointer, const pointer, sint32");
        Value x = cu.invokeMember("DeviceArray", "float", 4);
        Value unrelated = cu.invokeMember("DeviceArray", "float", 4);
        x.invokeMember("copyFrom", new float[] {1, 2, 3, 4});
        unrelated.setArrayElement(0, 5f);
        assertEquals(5.0, unrelated.getArrayElement(0).asDouble(), "read directly from the host copy from now on");
        scores[0] = cu.invokeMember("DeviceArray", "float", 4);
        score.execute(1, 4).execute(x, scores[0], 4);
        try {
            assertEquals(5.0, unrelated.getArrayElement(0).asDouble());
            return null;
        } catch (PolyglotException e) {
            assertEquals(5.0, unrelated.getArrayElement(0).asDouble(), "raised once: the context stays usable");
            return e;
        }
    }

    @Test
    void aConstStoreFailsAtTheNextHostReadUnderExplicitNamingBothRemedies() {
        Polyglot.assumeNvrtc();
        try (Context c = Polyglot.context()) {
            Value[] scores = new Value[1];
            PolyglotException e = constStore(c, scores);
            assertTrue(e != null && e.isGuestException() && !e.isInternalError(), String.valueOf(e));
            assertTrue(e.getMessage().startsWith("memcheck: kernel 'score'"), e.getMessage());
            assertTrue(e.getMessage().contains("parameter 'arg2', which the signature declares read-only (in/const): "
                    + "declare the parameter out or inout, or run GrCUDA programs written for unified memory with "
                    + "--polygpu.MemoryModel=managed"), e.getMessage());
            assertEquals(0.0, scores[0].getArrayElement(0).asDouble(), "the refused store left the scores as is");
        }
    }

    @Test
    void theSameProgramPassesUnderManagedMemory() {
        Polyglot.assumeNvrtc();
        try (Context c = Polyglot.context(Map.of("MemoryModel", "managed"))) {
            Value[] scores = new Value[1];
            assertEquals(null, constStore(c, scores));
            assertEquals(8.0, scores[0].getArrayElement(3).asDouble(), "the store landed, as on GrCUDA");
        }
    }

    @Test
    void theExportsAreWrittenForAProgramThatEndedWithAPendingFault(@TempDir Path dir) throws Exception {
        Polyglot.assumeNvrtc();
        Path trace = dir.resolve("t.json");
        Context c = Polyglot.context(Map.of("ExportTrace", trace.toString(), "ExportDAG", dir.resolve("g").toString()));
        Value cu = Polyglot.eval(c, "CU");
        Value overrun = cu.invokeMember("buildkernel", OVERRUN, "overrun(y: out pointer float, n: sint32)");
        overrun.execute(1, 4).execute(cu.invokeMember("DeviceArray", "float", 4), 4);
        PolyglotException e = assertThrows(PolyglotException.class, c::close, "the fault was never raised");
        assertTrue(e.getMessage().startsWith("memcheck: kernel 'overrun'"), e.getMessage());
        assertFalse(e.isInternalError(), e::toString);
        assertEquals(1, TraceEvents.read(trace).stream().filter(k -> k.name().startsWith("overrun")).count(),
                "the trace shows the faulted kernel");
        assertTrue(Files.readString(dir.resolve("g.dot")).contains("overrun"));
    }

    @Test
    void theTraceIsWrittenWhenTheProgramRaised(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.json");
        try (Context c = Polyglot.context(Map.of("ExportTrace", trace.toString()))) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> c.eval("python", """
                    import polyglot
                    a = polyglot.eval(language="polygpu", string="float[1024]")
                    b = polyglot.eval(language="polygpu", string="float[1024]")
                    b.copyFrom(a)
                    raise ValueError("the program gave up")
                    """));
            assertTrue(e.getMessage().contains("the program gave up"), e.getMessage());
        }
        assertTrue(TraceEvents.read(trace).stream().anyMatch(k -> k.category().equals("copy")),
                "the trace holds the program's copies");
    }
}
