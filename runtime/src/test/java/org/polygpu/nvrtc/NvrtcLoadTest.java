package org.polygpu.nvrtc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file named as NVRTC must be NVRTC: anything else is refused, saying what was found. */
class NvrtcLoadTest {
    @TempDir
    Path dir;

    @Test
    void aFileThatIsNotASharedLibraryIsRefusedAsSuch() throws IOException {
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0:root:/root:/bin/bash\n");
        NvrtcException e = assertThrows(NvrtcException.class, () -> FfmNvrtcApi.open(passwd));
        assertEquals("Cannot load NVRTC from " + passwd + ": it is not a shared library (an ELF file)",
                e.getMessage());
    }

    @Test
    void aSharedLibraryWithoutNvrtcsEntryPointIsRefusedAsNotNvrtc() {
        Path zlib = Path.of("/lib/x86_64-linux-gnu/libz.so.1");
        Assumptions.assumeTrue(Files.isRegularFile(zlib), "no zlib at " + zlib);
        NvrtcException e = assertThrows(NvrtcException.class, () -> FfmNvrtcApi.open(zlib));
        assertEquals(zlib + " is not NVRTC: it is a shared library without the function nvrtcVersion",
                e.getMessage());
    }
}
