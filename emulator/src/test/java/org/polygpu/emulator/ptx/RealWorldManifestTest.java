package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.polygpu.emulator.ptx.RealWorldCorpus.Kernel;
import org.polygpu.emulator.ptx.RealWorldCorpus.Package;

/**
 * The real-world corpus's manifest ({@code corpus/real-world.tsv}) against what the install script fetched: every
 * package's licence file is there, and every kernel's source is found where the manifest says and defines each of
 * its entries as a kernel.
 */
class RealWorldManifestTest {
    @Test
    void everyPackageHasItsLicenceAndEveryKernelItsEntries() {
        for (Package p : RealWorldCorpus.packages()) {
            RealWorldCorpus.assumeInstalled(p);
            Matcher licence = Pattern.compile("\\((\\S+)\\)").matcher(p.licence());
            assertTrue(licence.find(), p.name() + ": the licence column names no file");
            Path file = RealWorldCorpus.installed().orElseThrow().resolve(licence.group(1));
            assertTrue(Files.isRegularFile(file), p.name() + ": no licence file " + file);
        }
        for (Kernel k : RealWorldCorpus.kernels()) {
            String source = RealWorldCorpus.kernel(k.id()).source();
            for (String entry : k.entries()) {
                String function = entry.replaceAll("<.*", "");
                assertTrue(Pattern.compile("__global__[^;{]*?\\b" + Pattern.quote(function) + "\\s*\\(").matcher(
                        source).find(), k.origin() + " defines no kernel " + function);
            }
        }
    }
}
