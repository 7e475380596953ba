package org.polygpu.nvrtc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** NVRTC's architecture deprecation notice is dropped from logs and nothing else is. */
class ArchitectureNoticeTest {
    private static final String NOTICE = "nvrtc: warning: Architectures prior to '<compute/sm>_75' are deprecated "
            + "and may be removed in a future release\n";

    @Test
    void theNoticeAloneLeavesAnEmptyLog() {
        assertEquals("", Nvrtc.withoutArchitectureNotice(NOTICE));
        assertEquals("", Nvrtc.withoutArchitectureNotice(NOTICE.strip()));
    }

    @Test
    void theProgramsOwnDiagnosticsAreKept() {
        String warning = "w.cu(1): warning #177-D: variable \"u\" was declared but never referenced\n";
        assertEquals(warning, Nvrtc.withoutArchitectureNotice(NOTICE + warning));
        String quoted = "x.cu(2): warning: Architectures prior to compute_75 are deprecated\n";
        assertEquals(quoted, Nvrtc.withoutArchitectureNotice(quoted), "a line of the program's own log is kept");
    }
}
