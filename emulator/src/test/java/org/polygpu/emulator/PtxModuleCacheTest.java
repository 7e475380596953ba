package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.ModuleImage;

/** Loading one PTX text on several devices parses it once; each device gets its own module variables. */
class PtxModuleCacheTest {
    private static final String PTX = """
            .version 8.8
            .target sm_70
            .address_size 64
            .global .align 4 .u32 counter = 5;
            .visible .entry touch(.param .u64 p)
            {
                ret;
            }
            """;

    @Test
    void oneParseServesEveryDevice() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            var first = (EmulatedModule.Ptx) b.loadModule(0, new ModuleImage.Ptx(PTX));
            var second = (EmulatedModule.Ptx) b.loadModule(1, new ModuleImage.Ptx(new String(PTX.toCharArray())));
            var again = (EmulatedModule.Ptx) b.loadModule(0, new ModuleImage.Ptx(PTX));
            assertSame(first.image(), second.image());
            assertSame(first.image(), again.image());
            EmulatedBuffer v0 = first.variables().get("counter");
            EmulatedBuffer v1 = second.variables().get("counter");
            assertNotSame(v0, v1);
            assertEquals(0, v0.device());
            assertEquals(1, v1.device());
            assertEquals(5, v1.segment().get(java.lang.foreign.ValueLayout.JAVA_INT, 0));
        }
    }
}
