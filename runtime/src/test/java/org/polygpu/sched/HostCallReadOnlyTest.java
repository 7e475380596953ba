package org.polygpu.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.testing.NoWorkBackend;

/** A host function's write through a read-only parameter is undone and refused, naming function, parameter, element. */
class HostCallReadOnlyTest {
    private static final List<Parameter> PARAMETERS = List.of(Parameter.pointer("x", ElementType.FLOAT, Access.READ),
            Parameter.pointer("y", ElementType.FLOAT, Access.WRITE));

    @Test
    void aWriteThroughAReadOnlyParameterIsUndoneAndRefused() {
        try (NoWorkBackend backend = new NoWorkBackend(1);
             ExecutionContext ctx = NoWorkContexts.open(backend, NoWorkContexts.config())) {
            DeviceArray x = NoWorkContexts.array(ctx);
            DeviceArray y = NoWorkContexts.array(ctx);
            ctx.write(x, 2, 1.5f);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> ctx.libraries().callHost(
                    "clobber", PARAMETERS, new Object[] {x, y}, args -> {
                        ((MemorySegment) args[1]).setAtIndex(ValueLayout.JAVA_FLOAT, 0, 7f);
                        ((MemorySegment) args[0]).setAtIndex(ValueLayout.JAVA_FLOAT, 3, 9f);
                        return null;
                    }));
            assertTrue(e.getMessage().contains("host function 'clobber' wrote element 3 of " + x + " through "
                    + "parameter 'x', which its signature declares read-only (in/const); the write was undone"),
                    e.getMessage());
            assertEquals(0f, ctx.read(x, 3), "undone");
            assertEquals(1.5f, ctx.read(x, 2));
            assertEquals(7f, ctx.read(y, 0), "the write through the writable parameter stays");
            Object sum = ctx.libraries().callHost("sum", PARAMETERS, new Object[] {x, y}, args -> {
                MemorySegment in = (MemorySegment) args[0];
                ((MemorySegment) args[1]).setAtIndex(ValueLayout.JAVA_FLOAT, 1,
                        in.getAtIndex(ValueLayout.JAVA_FLOAT, 2) * 2);
                return "ok";
            });
            assertEquals("ok", sum, "a function that only reads x is not refused");
            assertEquals(3f, ctx.read(y, 1));
        }
    }
}
