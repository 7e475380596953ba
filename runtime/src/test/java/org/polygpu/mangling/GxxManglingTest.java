package org.polygpu.mangling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * 100 generated functions of 10 random parameters (GrCUDA's mangling test: the 14 types, by value, pointer or pointer
 * to const), half of them in namespaces, compiled by the machine's g++: every symbol it emits is the one mangled here.
 * Skipped when no g++ is installed.
 */
class GxxManglingTest {
    private static final int FUNCTIONS = 100;
    private static final int PARAMETERS = 10;
    private static final CxxParameter.Passing[] PASSINGS = CxxParameter.Passing.values();

    @Test
    void everyGeneratedFunctionIsMangledAsGxxDoes() throws IOException, InterruptedException {
        Random random = new Random(0xdeadbeefL);
        StringBuilder source = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int f = 0; f < FUNCTIONS; f++) {
            List<CxxParameter> params = new ArrayList<>();
            for (int i = 0; f > 0 && i < PARAMETERS; i++) {
                params.add(new CxxParameter(CxxType.values()[random.nextInt(CxxType.values().length)],
                        PASSINGS[random.nextInt(PASSINGS.length)]));
            }
            String name = String.format("function%03d", f);
            String namespaces = f % 2 == 0 ? "" : f % 4 == 1 ? "ns" + f + "::" : "outer::inner" + f + "::";
            expected.add(ItaniumMangler.mangle(namespaces + name, params));
            source.append(open(namespaces)).append("void ").append(name).append('(');
            for (int i = 0; i < params.size(); i++) {
                source.append(i == 0 ? "" : ", ").append(params.get(i)).append(" arg").append(i);
            }
            source.append(") { }").append(close(namespaces)).append('\n');
        }
        assertEquals(expected, gxxSymbols(source.toString()));
    }

    private static String open(String namespaces) {
        StringBuilder s = new StringBuilder();
        for (String n : namespaces.split("::")) {
            if (!n.isEmpty()) {
                s.append("namespace ").append(n).append(" { ");
            }
        }
        return s.toString();
    }

    private static String close(String namespaces) {
        return " }".repeat((int) java.util.Arrays.stream(namespaces.split("::")).filter(n -> !n.isEmpty()).count());
    }

    /** The function symbols of g++'s assembly for {@code source}, in definition order. */
    private static List<String> gxxSymbols(String source) throws IOException, InterruptedException {
        Process gxx;
        try {
            gxx = new ProcessBuilder("g++", "-x", "c++", "-S", "-o", "-", "-").redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("g++ is not installed: " + e.getMessage());
            throw e;
        }
        gxx.getOutputStream().write(source.getBytes(StandardCharsets.UTF_8));
        gxx.getOutputStream().close();
        String assembly = new String(gxx.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!gxx.waitFor(60, TimeUnit.SECONDS) || gxx.exitValue() != 0) {
            throw new AssertionError("g++ failed:\n" + assembly);
        }
        return assembly.lines().filter(l -> l.startsWith("_Z") && l.endsWith(":"))
                .map(l -> l.substring(0, l.length() - 1)).toList();
    }
}
