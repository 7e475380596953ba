package org.polygpu.it;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.function.UnaryOperator;

import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.config.OptionValue;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.JavaKernelModule;
import org.polygpu.emulator.KernelCost;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.BandwidthMatrixLoader;

/** Emulated contexts and a few float kernels written as Java functions, shared by the cross-module tests. */
final class Fixtures {
    static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /**
     * Declared memory traffic per element: large, so that a 1000-element kernel runs for about 100 µs of virtual
     * time and the work of a test is still in flight while the host issues the next call.
     */
    static final double BYTES_PER_ELEMENT = 100_000;

    /** The kernels, each declaring 1 flop and {@link #BYTES_PER_ELEMENT} bytes per element. */
    static final JavaKernelModule MODULE = JavaKernelModule.builder()
            .kernel("scale", ctx -> {
                MemorySegment x = ctx.pointer(0);
                MemorySegment y = ctx.pointer(1);
                int n = ctx.intArg(2);
                float k = ctx.floatArg(3);
                for (int i = 0; i < n; i++) {
                    y.setAtIndex(F, i, x.getAtIndex(F, i) * k);
                }
            }, KernelCost.perElement(2, 1, BYTES_PER_ELEMENT))
            .kernel("add", ctx -> {
                MemorySegment x = ctx.pointer(0);
                MemorySegment y = ctx.pointer(1);
                MemorySegment z = ctx.pointer(2);
                int n = ctx.intArg(3);
                for (int i = 0; i < n; i++) {
                    z.setAtIndex(F, i, x.getAtIndex(F, i) + y.getAtIndex(F, i));
                }
            }, KernelCost.perElement(3, 1, BYTES_PER_ELEMENT))
            .kernel("inc", ctx -> {
                MemorySegment x = ctx.pointer(0);
                int n = ctx.intArg(1);
                for (int i = 0; i < n; i++) {
                    x.setAtIndex(F, i, x.getAtIndex(F, i) + 1);
                }
            }, KernelCost.perElement(1, 1, BYTES_PER_ELEMENT))
            .build();

    private Fixtures() {
    }

    /** Writes {@code 0, 1, 2, ...} from the host into every element of the float array {@code x}. */
    static void fillWithIndices(ExecutionContext ctx, DeviceArray x) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(x.byteSize());
            for (int i = 0; i < x.byteSize() / Float.BYTES; i++) {
                s.setAtIndex(F, i, i);
            }
            ctx.copyFromHost(x, s);
        }
    }

        /** 4 blocks of 256 threads, enough for the arrays of the tests. */
    static LaunchConfig launch() {
        return LaunchConfig.of(4, 256);
    }

    static EmulatedBackend backend(int devices, String topology) {
        return EmulatedBackend.builder().devices(devices).topology(BandwidthMatrixLoader.preset(topology))
                .model(DeviceModel.V100).build();
    }

    /** A context recording the DAG and the timeline, with the defaults changed by {@code options}. */
    static ExecutionContext context(EmulatedBackend backend, UnaryOperator<RuntimeConfig> options) {
        RuntimeConfig config = options.apply(RuntimeConfig.defaults().withRecording(true, true));
        return ExecutionContext.create(backend, config, backend.topology());
    }

    static ExecutionContext context(EmulatedBackend backend) {
        return context(backend, UnaryOperator.identity());
    }

    /** The constant of an option's enum written as in an option, such as {@code multigpu-disjoint}. */
    static <E extends Enum<E> & OptionValue> E option(Class<E> type, String value) {
        return OptionValue.parse(type, type.getSimpleName(), value);
    }

    static BandwidthMatrix matrix(String preset) {
        return BandwidthMatrixLoader.preset(preset);
    }

    /** scale(x: in float, y: out float, n: int, k: float). */
    static Kernel scale(ExecutionContext ctx) {
        return ctx.kernel("scale", MODULE, List.of(Parameter.pointer("x", ElementType.FLOAT, Access.READ),
                Parameter.pointer("y", ElementType.FLOAT, Access.WRITE), Parameter.scalar("n", ElementType.INT),
                Parameter.scalar("k", ElementType.FLOAT)));
    }

    /** add(x: in float, y: in float, z: out float, n: int). */
    static Kernel add(ExecutionContext ctx) {
        return ctx.kernel("add", MODULE, List.of(Parameter.pointer("x", ElementType.FLOAT, Access.READ),
                Parameter.pointer("y", ElementType.FLOAT, Access.READ),
                Parameter.pointer("z", ElementType.FLOAT, Access.WRITE), Parameter.scalar("n", ElementType.INT)));
    }

    /** inc(x: inout float, n: int). */
    static Kernel inc(ExecutionContext ctx) {
        return ctx.kernel("inc", MODULE, List.of(Parameter.pointer("x", ElementType.FLOAT, Access.READ_WRITE),
                Parameter.scalar("n", ElementType.INT)));
    }
}
