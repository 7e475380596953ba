package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;

/** Memcheck: out-of-bounds global, shared and local accesses, and the instruction budget. */
class MemcheckTest {
    /** The 1-based line of the first line containing {@code needle} after the line containing {@code entry}. */
    static int lineOf(String fixture, String entry, String needle) {
        List<String> lines = TestDevice.fixture(fixture).lines().toList();
        int from = 0;
        while (!lines.get(from).contains(entry)) {
            from++;
        }
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).contains(needle)) {
                return i + 1;
            }
        }
        throw new AssertionError(needle + " not found after " + entry);
    }

    @Test
    void globalReadPastTheEndNamesKernelBlockThreadAddressSizeAndLine() {
        PtxModule m = TestDevice.module("vector_add.ptx");
        try (TestDevice d = new TestDevice()) {
            float[] values = new float[100];
            for (int i = 0; i < values.length; i++) {
                values[i] = i + 1;
            }
            long a = d.floats(values);
            long out = d.allocate(4 * 128);
            BackendException e = assertThrows(BackendException.class, () -> d.launch(m, "oob_read", 4, 32, a, out));
            int line = lineOf("vector_add.ptx", ".entry oob_read", "ld.global.f32");
            String expected = "memcheck: kernel 'oob_read' block (3, 0, 0) thread (4, 0, 0): invalid global read of 4 "
                    + "bytes at address 0x" + Long.toHexString(a + 400) + ": it is 0 bytes past the end of the buffer "
                    + "of 400 bytes at 0x" + Long.toHexString(a) + " (PTX line " + line
                    + ": ld.global.f32 \t%f1, [%rd6];)";
            assertEquals(expected, e.getMessage());
            // the CTAs before the failing one completed, and the device remains usable
            assertArrayEquals(java.util.Arrays.copyOf(values, 96), d.floatsAt(out, 96));
            assertEquals(0f, d.floatsAt(out, 97)[96]); // the failing warp stopped at the load
            KernelCounters c = d.launch(m, "oob_read", 3, 32, a, out);
            assertEquals(3, c.ctas());
        }
    }

    @Test
    void nullPointerIsOutsideEveryAllocation() {
        PtxModule m = TestDevice.module("vector_add.ptx");
        try (TestDevice d = new TestDevice()) {
            BackendException e = assertThrows(BackendException.class,
                    () -> d.launch(m, "vadd", 1, 32, 0L, 0L, 0L, 32));
            assertTrue(e.getMessage().contains("invalid global read of 4 bytes at address 0x0: it is not in any "
                    + "allocation of the device"), e.getMessage());
            assertTrue(e.getMessage().contains("thread (0, 0, 0)"), e.getMessage());
        }
    }

    @Test
    void sharedReadPastTheTile() {
        PtxModule m = TestDevice.module("shared.ptx");
        try (TestDevice d = new TestDevice()) {
            BackendException e = assertThrows(BackendException.class,
                    () -> d.launch(m, "shared_oob", 2, 64, d.allocate(4 * 64), 1));
            int line = lineOf("shared.ptx", ".entry shared_oob", "ld.shared.u32");
            assertTrue(e.getMessage().startsWith("memcheck: kernel 'shared_oob' block (0, 0, 0) thread (63, 0, 0): "
                    + "invalid shared read of 4 bytes at address 0x100: the block has 256 bytes of shared memory"),
                    e.getMessage());
            assertTrue(e.getMessage().endsWith("(PTX line " + line + ": ld.shared.u32 \t%r4, [%rd7];)"),
                    e.getMessage());
        }
    }

    @Test
    void localArrayIndexPastTheStackFrame() {
        PtxModule m = TestDevice.module("shared.ptx");
        try (TestDevice d = new TestDevice()) {
            BackendException e = assertThrows(BackendException.class,
                    () -> d.launch(m, "local_oob", 1, 32, d.ints(new int[32]), 8));
            assertTrue(e.getMessage().startsWith("memcheck: kernel 'local_oob' block (0, 0, 0) thread (0, 0, 0): "
                    + "invalid local read of 4 bytes at address 0x20: each thread has 32 bytes of local memory"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("ld.local.u32"), e.getMessage());
        }
    }

    @Test
    void endlessLoopIsStoppedByTheInstructionBudget() {
        PtxModule m = TestDevice.module("vector_add.ptx");
        try (TestDevice d = new TestDevice()) {
            d.budget = 200_000;
            BackendException e = assertThrows(BackendException.class, () -> d.launch(m, "spin", 1, 64, d.ints(0)));
            assertTrue(e.getMessage().startsWith("kernel 'spin' exceeded its instruction budget of 200000 "
                    + "thread-instructions and was stopped; it may never terminate"), e.getMessage());
            // both warps spin, in turn: the one running when the budget ran out is named
            assertTrue(e.getMessage().matches("(?s).*Block \\(0, 0, 0\\) warp [01] was at PTX line .*"),
                    e.getMessage());
            d.budget = 1_000_000;
            KernelCounters c = d.launch(m, "spin", 1, 64, d.ints(1));
            assertEquals(2 * 6, c.warpInstructions()); // the flag is set: each warp runs the loop body once
        }
    }
}
