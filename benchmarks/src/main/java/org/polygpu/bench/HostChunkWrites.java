package org.polygpu.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.JavaKernelModule;
import org.polygpu.emulator.KernelCost;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * What host element writes between two kernels cost (benchmarks/README.md, "Host element writes"): a kernel on GPU 0
 * writes {@code x}, the host writes {@code writes} elements of it in distinct chunks, a kernel on GPU 1 computes
 * {@code y = 2x}, the host reads {@code y[0]}; on 2 emulated V100s of v100x8, round-robin. Prints the makespan (virtual
 * time) and the bytes each kind of copy moved.
 *
 * <pre>POLYGPU_CLASSPATH=benchmarks/target/classes bin/polygpu --java org.polygpu.bench.HostChunkWrites ELEMENTS WRITES</pre>
 */
public final class HostChunkWrites {
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT;

    private HostChunkWrites() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: HostChunkWrites ELEMENTS WRITES");
            System.exit(2);
        }
        int n = Integer.parseInt(args[0]);
        int writes = Integer.parseInt(args[1]);
        JavaKernelModule module = JavaKernelModule.builder()
                .kernel("fill", k -> {
                    MemorySegment x = k.pointer(0);
                    for (int i = 0; i < k.intArg(1); i++) {
                        x.setAtIndex(F, i, i);
                    }
                }, KernelCost.perElement(1, 1, 4))
                .kernel("scale", k -> {
                    MemorySegment x = k.pointer(0);
                    MemorySegment y = k.pointer(1);
                    for (int i = 0; i < k.intArg(2); i++) {
                        y.setAtIndex(F, i, 2 * x.getAtIndex(F, i));
                    }
                }, KernelCost.perElement(2, 1, 8))
                .build();
        try (EmulatedBackend b = EmulatedBackend.builder().devices(2).topology(BandwidthMatrixLoader.preset("v100x8"))
                .model(DeviceModel.V100).build();
             ExecutionContext ctx = ExecutionContext.create(b, RuntimeConfig.defaults().withRecording(false, true)
                     .withDeviceSelectionPolicy("round-robin"), b.topology())) {
            Kernel fill = ctx.kernel("fill", module, List.of(Parameter.pointer("x", ElementType.FLOAT, Access.WRITE),
                    Parameter.scalar("n", ElementType.INT)));
            Kernel scale = ctx.kernel("scale", module, List.of(
                    Parameter.pointer("x", ElementType.FLOAT, Access.READ),
                    Parameter.pointer("y", ElementType.FLOAT, Access.WRITE), Parameter.scalar("n", ElementType.INT)));
            DeviceArray x = ctx.newArray(ElementType.FLOAT, n);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, n);
            LaunchConfig launch = LaunchConfig.of(64, 256);
            ctx.launch(fill, launch, x, n);
            for (int w = 0; w < writes; w++) {
                ctx.write(x, (long) w * (n / writes), -1f);
            }
            ctx.launch(scale, launch, x, y, n);
            Object first = ctx.read(y, 0);
            ctx.synchronize();
            long[] bytes = new long[TimedOperation.Kind.values().length];
            for (TimedOperation op : ctx.timeline()) {
                bytes[op.kind().ordinal()] += op.kind() == TimedOperation.Kind.KERNEL ? 0 : op.bytes();
            }
            System.out.printf("elements %d, writes %d, y[0] = %s: makespan %.1f us; host to device %d B, device to "
                    + "host %d B, device to device %d B%n", n, writes, first, b.makespanNanos() / 1e3,
                    bytes[TimedOperation.Kind.COPY_HOST_TO_DEVICE.ordinal()],
                    bytes[TimedOperation.Kind.COPY_DEVICE_TO_HOST.ordinal()],
                    bytes[TimedOperation.Kind.COPY_DEVICE_TO_DEVICE.ordinal()]);
        }
    }
}
