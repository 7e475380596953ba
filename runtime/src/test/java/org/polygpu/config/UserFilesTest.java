package org.polygpu.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each bad file an option names is refused with the option, the path and the operating system's reason. */
class UserFilesTest {
    @TempDir
    Path dir;

    private String refused(Runnable check) {
        return assertThrows(IllegalArgumentException.class, check::run).getMessage();
    }

    private Path fifo() throws IOException, InterruptedException {
        Path fifo = dir.resolve("fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        Assumptions.assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo is available");
        return fifo;
    }

    @Test
    void anInputMustBeAnExistingRegularFile() throws Exception {
        Path missing = dir.resolve("missing.csv");
        assertEquals("Opt=" + missing + " does not exist", refused(() -> UserFiles.input("Opt", missing)));
        assertEquals("Opt=" + dir + " is a directory, not a file", refused(() -> UserFiles.input("Opt", dir)));
        assertEquals("Opt=/dev/null is a character device, not a regular file",
                refused(() -> UserFiles.input("Opt", Path.of("/dev/null"))));
        Path fifo = fifo();
        assertEquals("Opt=" + fifo + " is a FIFO (named pipe), not a regular file",
                refused(() -> UserFiles.input("Opt", fifo)), "refused without opening it, which would block");
        Path ok = Files.writeString(dir.resolve("ok.csv"), "x");
        assertEquals(ok, UserFiles.input("Opt", ok));
    }

    @Test
    void textMustBeUtf8AndAFileNamedByNoOptionIsNamedAlone() throws Exception {
        Path binary = Files.write(dir.resolve("b.csv"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        assertEquals("Opt=" + binary + " is not a text file (it is not UTF-8)",
                refused(() -> UserFiles.readText("Opt", binary)));
        assertEquals(binary + " is not a text file (it is not UTF-8)", refused(() -> UserFiles.readText(null, binary)));
        assertEquals("a,b\n", UserFiles.readText("Opt", Files.writeString(dir.resolve("t.csv"), "a,b\n")));
    }

    @Test
    void aLibraryMustBeAnElfFile() throws Exception {
        Path text = Files.writeString(dir.resolve("lib.txt"), "not a library");
        assertEquals("Lib=" + text + " is not a shared library (an ELF file)",
                refused(() -> UserFiles.library("Lib", text)));
        Path elf = Files.write(dir.resolve("lib.so"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1});
        assertEquals(elf, UserFiles.library("Lib", elf));
    }

    @Test
    void anOutputNeedsAnExistingDirectoryAndMayBeADevice() throws Exception {
        Path nowhere = dir.resolve("no/such/t.json");
        assertEquals("Out=" + nowhere + " cannot be created: its directory " + nowhere.getParent()
                + " does not exist", refused(() -> UserFiles.output("Out", nowhere)));
        assertEquals("Out=" + dir + " is a directory, not a file", refused(() -> UserFiles.output("Out", dir)));
        Path fifo = fifo();
        assertEquals("Out=" + fifo + " is a FIFO (named pipe), not a regular file",
                refused(() -> UserFiles.output("Out", fifo)));
        Path dot = dir.resolve("g.dot");
        assertEquals(dot, UserFiles.output("Out", dir.resolve("g").toString(), dot));
        assertEquals(Path.of("/dev/null"), UserFiles.output("Out", Path.of("/dev/null")), "an export discarded");
        Path under = dir.resolve("g/x");
        assertEquals("Out=" + under + " (file " + under + ".dot) cannot be created: its directory " + under
                .getParent() + " does not exist", refused(() -> UserFiles.output("Out", under.toString(),
                Path.of(under + ".dot"))));
    }

    @Test
    void aDirectoryMayBeCreatedUnlessAFileIsInTheWay() throws Exception {
        assertEquals(dir.resolve("a/b"), UserFiles.directory("Dir", dir.resolve("a/b")));
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertEquals("Dir=" + file + " is a regular file, not a directory",
                refused(() -> UserFiles.directory("Dir", file)));
        assertEquals("Dir=" + file.resolve("sub") + " cannot be created: " + file + " is a regular file, not a "
                + "directory", refused(() -> UserFiles.directory("Dir", file.resolve("sub"))));
        assertEquals("Dir=/dev/null is a character device, not a directory",
                refused(() -> UserFiles.directory("Dir", Path.of("/dev/null"))));
    }
}
