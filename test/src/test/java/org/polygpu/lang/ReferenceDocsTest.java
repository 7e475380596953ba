package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.polygpu.lang.builtins.BuiltinSignature;
import org.polygpu.lang.launcher.Launcher;
import org.polygpu.lang.objects.BuiltinObject;
import org.polygpu.lang.objects.GuestMembers;
import org.polygpu.lang.objects.NamespaceObject;

/**
 * The generated reference ({@code docs/reference/}) matches what the code declares, and the declarations describe
 * every option, every {@code CU} function and every member the guest objects expose. With
 * {@code -Dpolygpu.docs.update=true} (what {@code scripts/docs-reference.sh} passes) the pages are rewritten first.
 */
class ReferenceDocsTest {
    private static final Path DIRECTORY = Path.of("..", "docs", "reference");

    @Test
    void committedReferenceMatchesTheCode() throws IOException {
        Map<String, String> pages;
        try (Context c = Polyglot.context()) {
            pages = ReferenceDocs.pages(Polyglot.ENGINE, c);
        }
        if (Boolean.getBoolean("polygpu.docs.update")) {
            Files.createDirectories(DIRECTORY);
            for (var page : pages.entrySet()) {
                Files.writeString(DIRECTORY.resolve(page.getKey()), page.getValue());
            }
        }
        for (var page : pages.entrySet()) {
            Path file = DIRECTORY.resolve(page.getKey());
            assertTrue(Files.exists(file), "docs/reference/" + page.getKey() + " is missing: run "
                    + ReferenceDocs.REGENERATE);
            assertEquals(page.getValue(), Files.readString(file), "docs/reference/" + page.getKey()
                    + " differs from what the code declares: run " + ReferenceDocs.REGENERATE + " and commit it");
        }
    }

    @Test
    void everyOptionOfHelpIsInTheOptionsPage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            assertEquals(0, Launcher.run(List.of("--help"), new ByteArrayInputStream(new byte[0]), o, o,
                    Polyglot.ENGINE));
        }
        String page = ReferenceDocs.options(Polyglot.ENGINE);
        Matcher m = Pattern.compile("(?m)^  --(polygpu\\.\\w+)=").matcher(out.toString(StandardCharsets.UTF_8));
        List<String> options = new ArrayList<>();
        while (m.find()) {
            options.add(m.group(1));
            assertTrue(page.contains("| `--" + m.group(1) + "` |"), m.group(1) + " is not in the options page");
        }
        assertTrue(options.size() >= 30, "--help lists the options: " + options);
    }

    @Test
    void everyFunctionOfTheNamespaceIsDescribed() {
        try (Context c = Polyglot.context()) {
            Polyglot.eval(c, "CU");
            c.enter();
            try {
                NamespaceObject root = PolygpuContext.get(null).root();
                List<String> functions = new ArrayList<>();
                for (String name : root.memberNames()) {
                    Object member = root.lookup(name);
                    if (member instanceof BuiltinObject b) {
                        functions.add(name);
                        assertFalse(b.signature().help().isBlank(), name + " has no help in its signature");
                        assertTrue(b.signature().usage().startsWith(name), name + "'s usage names it");
                    }
                }
                assertTrue(functions.containsAll(List.of("DeviceArray", "buildkernel", "bind", "cudaMemcpy",
                        "cudaStreamCreate", "Map")), "the namespace's functions: " + functions);
            } finally {
                c.leave();
            }
        }
    }

    @Test
    void declaredMembersAreTheMembersObjectsExpose() {
        Polyglot.assumeNvrtc();
        try (Context c = Polyglot.context()) {
            Value cu = Polyglot.eval(c, "CU");
            Value array = cu.invokeMember("DeviceArray", "float", 4);
            assertEquals(names(GuestMembers.arrayMembers()), array.getMemberKeys().stream().toList());
            Value row = cu.invokeMember("DeviceArray", "float", 2, 2).getArrayElement(0);
            assertEquals(GuestMembers.arrayViewMembers(), row.getMemberKeys().stream().toList());
            Value kernel = cu.invokeMember("buildkernel", "extern \"C\" __global__ void k(float *x) { x[0] = 1; }",
                    "k(x: out pointer float)");
            assertEquals(names(GuestMembers.kernelMembers()), kernel.getMemberKeys().stream().toList());
            Value launch = kernel.execute(1, 1).execute(array);
            assertEquals(names(GuestMembers.launchMembers()), launch.getMemberKeys().stream().toList());
            Value device = cu.invokeMember("getdevice", 0);
            assertEquals(names(GuestMembers.deviceMembers()), device.getMemberKeys().stream().toList());
            Value stream = cu.invokeMember("cudaStreamCreate");
            assertEquals(names(GuestMembers.handleMembers()), stream.getMemberKeys().stream().toList());
            assertEquals(names(GuestMembers.handleMembers()),
                    cu.invokeMember("cudaEventCreate").getMemberKeys().stream().toList());
        }
    }

    private static List<String> names(List<BuiltinSignature> members) {
        return members.stream().map(BuiltinSignature::name).toList();
    }
}
