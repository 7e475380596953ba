package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;

/** {@code cp.async} global-to-shared copies, with their zero fill, commit and wait (sm_80's asynchronous copies). */
class CopyAsyncTest {
    private static final PtxModule ROTATE = TestDevice.module("copy_async.ptx");

    @Test
    void copiesLandInSharedMemoryAndBytesPastTheSourceSizeAreZero() {
        int[] in = new int[128];
        for (int i = 0; i < in.length; i++) {
            in[i] = 1000 + i;
        }
        for (int keep : new int[] {16, 8, 0}) {
            try (TestDevice d = new TestDevice()) {
                long out = d.allocate(512);
                d.launch(ROTATE, "rotate", 1, 32, d.ints(in), out, keep);
                int[] expected = new int[128];
                for (int t = 0; t < 32; t++) {
                    int from = (t + 1) % 32 * 4;
                    for (int k = 0; k < 4; k++) {
                        // word 1 is copied again in full by the second, 4-byte cp.async
                        expected[t * 4 + k] = k < keep / 4 || k == 1 ? in[from + k] : 0;
                    }
                }
                assertArrayEquals(expected, d.intsAt(out, 128), "source size " + keep);
            }
        }
    }

    @Test
    void aCopyOutsideTheSourceBufferIsAMemcheckError() {
        try (TestDevice d = new TestDevice()) {
            long small = d.allocate(64);
            BackendException e = assertThrows(BackendException.class,
                    () -> d.launch(ROTATE, "rotate", 1, 32, small, d.allocate(512), 16));
            assertTrue(e.getMessage().startsWith("memcheck: kernel 'rotate' block (0, 0, 0) thread (4, 0, 0): "
                    + "invalid global read"), e.getMessage());
        }
    }
}
