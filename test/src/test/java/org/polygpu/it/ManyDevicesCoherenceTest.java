package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.TimedOperation;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * Coherence past 64 devices, where a set of locations no longer fits one word: emulated clusters of 9 and 16 nodes
 * of 8 GPUs (72 and 128 devices; the host is location 72 or 128) move data right and track where it is valid.
 */
class ManyDevicesCoherenceTest {
    private static final int N = 1000;

    private static EmulatedBackend cluster(String topology, int devices) {
        return EmulatedBackend.builder().devices(devices).topology(BandwidthMatrixLoader.resolve(topology))
                .model(DeviceModel.V100).build();
    }

    /** The copies made for computation {@code c}, as {@code "source->device"} ({@code -1} is the host). */
    private static List<String> copiesFor(ExecutionContext ctx, Computation c) {
        ctx.synchronize();
        return ctx.timeline().stream()
                .filter(op -> op.label().computationId() == c.id() && op.kind() != TimedOperation.Kind.KERNEL)
                .map(op -> op.source() + "->" + op.device()).toList();
    }

    @Test
    void launchesOnDevices70And100CopyFromTheValidReplicaAndReadBackRight() {
        try (EmulatedBackend backend = cluster("16xh100x8", 128);
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("single-gpu"))) {
            assertEquals(128, ctx.deviceCount());
            Kernel inc = Fixtures.inc(ctx);
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            Fixtures.fillWithIndices(ctx, x);
            assertEquals(LocationSet.host(128), x.coherence().validLocations());

            ctx.streams().setCurrentDevice(70);
            Computation a = ctx.launch(inc, Fixtures.launch(), x, N);
            assertEquals(70, a.device());
            assertEquals(LocationSet.of(70), x.coherence().validLocations(), "written on 70, Invalid elsewhere");
            assertEquals(List.of("-1->70"), copiesFor(ctx, a));

            ctx.streams().setCurrentDevice(100);
            DeviceArray y = ctx.newArray(ElementType.FLOAT, N);
            Computation b = ctx.launch(scale, Fixtures.launch(), x, y, N, 2f);
            assertEquals(100, b.device());
            assertEquals(List.of("70->100"), copiesFor(ctx, b), "x comes from device 70, its only valid copy");
            assertEquals(LocationSet.of(70, 100), x.coherence().validLocations());
            assertEquals(LocationSet.of(100), y.coherence().validLocations());

            // A device-to-device copy between two devices past 64, then the host reads everything back.
            ctx.streams().setCurrentDevice(127);
            DeviceArray z = ctx.newArray(ElementType.FLOAT, N);
            Computation copy = ctx.copy(y, z);
            assertEquals(127, copy.device());
            assertEquals(List.of("100->127", "127->127"), copiesFor(ctx, copy),
                    "y's replica comes from device 100, then the copy runs on device 127");
            assertEquals(LocationSet.of(100, 127), y.coherence().validLocations());
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment host = arena.allocate(z.byteSize());
                ctx.copyToHost(z, host);
                for (int i = 0; i < N; i += 111) {
                    assertEquals(2f * (i + 1), host.getAtIndex(Fixtures.F, i), "z[" + i + "]");
                }
            }
            assertEquals(LocationSet.of(127, 128), z.coherence().validLocations());
            assertEquals(8f, (Float) ctx.read(x, 7));
            assertEquals(2f * 8, (Float) ctx.read(y, 7));
        }
    }

    @Test
    void roundRobinSpreadsOverAll72DevicesWithTheRightValues() {
        try (EmulatedBackend backend = cluster("9xh100x8", 72);
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy("round-robin"))) {
            Kernel scale = Fixtures.scale(ctx);
            DeviceArray x = ctx.newArray(ElementType.FLOAT, N);
            Fixtures.fillWithIndices(ctx, x);
            TreeSet<Integer> devices = new TreeSet<>();
            DeviceArray[] out = new DeviceArray[80];
            for (int i = 0; i < out.length; i++) {
                out[i] = ctx.newArray(ElementType.FLOAT, N);
                devices.add(ctx.launch(scale, Fixtures.launch(), x, out[i], N, (float) i).device());
            }
            assertEquals(72, devices.size(), "every device ran a kernel: " + devices);
            assertEquals(71, devices.last());
            assertEquals(LocationSet.allDevices(72).with(72), x.coherence().validLocations(),
                    "x is read everywhere and still valid on the host");
            for (int i = 0; i < out.length; i += 7) {
                assertEquals(3f * i, (Float) ctx.read(out[i], 3), "out[" + i + "][3]");
            }
        }
    }
}
