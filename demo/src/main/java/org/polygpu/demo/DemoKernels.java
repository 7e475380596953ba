package org.polygpu.demo;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.ElementType;
import org.polygpu.emulator.JavaKernelModule;
import org.polygpu.emulator.KernelCost;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;

/**
 * The kernels of the demo, as Java functions for the emulator, with costs declared per element (flops and bytes
 * of memory traffic, as a profiler would count them).
 */
final class DemoKernels {
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;

    static final JavaKernelModule MODULE = JavaKernelModule.builder()
            .kernel("square", ctx -> {
                MemorySegment x = ctx.pointer(0);
                int n = ctx.intArg(1);
                for (int i = 0; i < n; i++) {
                    float v = x.getAtIndex(F, i);
                    x.setAtIndex(F, i, v * v);
                }
            }, KernelCost.perElement(1, 1, 8))
            .kernel("diff", ctx -> {
                MemorySegment x = ctx.pointer(0);
                MemorySegment y = ctx.pointer(1);
                MemorySegment z = ctx.pointer(2);
                int n = ctx.intArg(3);
                for (int i = 0; i < n; i++) {
                    z.setAtIndex(F, i, x.getAtIndex(F, i) - y.getAtIndex(F, i));
                }
            }, KernelCost.perElement(3, 1, 12))
            .kernel("reduce", ctx -> {
                MemorySegment z = ctx.pointer(0);
                MemorySegment out = ctx.pointer(1);
                int n = ctx.intArg(2);
                int slot = ctx.intArg(3);
                float sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += z.getAtIndex(F, i);
                }
                out.setAtIndex(F, slot, sum);
            }, KernelCost.perElement(2, 1, 4))
            .build();

    private DemoKernels() {
    }

    static Kernel square(ExecutionContext ctx) {
        return ctx.kernel("square", MODULE, List.of(Parameter.pointer("x", ElementType.FLOAT, Access.READ_WRITE),
                Parameter.scalar("n", ElementType.INT)));
    }

    static Kernel diff(ExecutionContext ctx) {
        return ctx.kernel("diff", MODULE, List.of(Parameter.pointer("x", ElementType.FLOAT, Access.READ),
                Parameter.pointer("y", ElementType.FLOAT, Access.READ),
                Parameter.pointer("z", ElementType.FLOAT, Access.WRITE), Parameter.scalar("n", ElementType.INT)));
    }

    static Kernel reduce(ExecutionContext ctx) {
        return ctx.kernel("reduce", MODULE, List.of(Parameter.pointer("z", ElementType.FLOAT, Access.READ),
                Parameter.pointer("out", ElementType.FLOAT, Access.READ_WRITE), Parameter.scalar("n", ElementType.INT),
                Parameter.scalar("slot", ElementType.INT)));
    }
}
