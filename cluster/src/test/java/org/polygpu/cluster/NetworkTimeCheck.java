package org.polygpu.cluster;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.ClusterCudaAware;

/**
 * The network in the virtual clocks of emulated ranks, for {@link NetworkTimeJobTest} under {@code mpirun -np 2} with
 * one emulated V100 per rank: a kernel on rank 1 ({@code fill}) writes {@link #BYTES}; a stream of rank 0 waits for
 * it and copies the bytes from rank 1's device; a kernel on rank 0 ({@code inc}) then runs on rank 0's first stream.
 * {@code dependent}: the copy is on that stream too and the kernel reads what it copied (checked on the host);
 * {@code independent}: the copy is on a second stream and the kernel touches a buffer of its own. Rank 0 prints the
 * virtual times of the job's timeline ({@code fill ends at ... ns; inc starts at ... ns}), then {@code DONE}.
 * {@code args[0]} is {@code ClusterCudaAware}'s value, {@code args[1]} {@code dependent} or {@code independent}.
 */
public final class NetworkTimeCheck {
    static final int INTS = 2 * Transport.CHUNK_BYTES / 4 + 1000;
    static final long BYTES = 4L * INTS;
    private static final LaunchConfig GRID = LaunchConfig.of((INTS + 255) / 256, 256);

    private NetworkTimeCheck() {
    }

    public static void main(String[] args) {
        ClusterCudaAware mode = ClusterCudaAware.valueOf(args[0].toUpperCase(Locale.ROOT));
        boolean dependent = args[1].equals("dependent");
        BackendOptions options = BackendOptions.defaults().withEmulatedDevices(1);
        Session session = Session.join(Duration.ofSeconds(60));
        if (session.rank() != 0) {
            new Worker(session, "emulated", options).serve();
        }
        OpenedBackend opened = ClusterOpening.open(session, Backends.open("emulated", options), mode);
        try (Backend b = opened.backend()) {
            run(b, dependent);
        }
        System.out.println("DONE");
    }

    private static void run(Backend b, boolean dependent) {
        b.recordTimeline(true);
        StreamHandle s1 = b.createStream(1);
        StreamHandle s0 = b.createStream(0);
        StreamHandle copying = dependent ? s0 : b.createStream(0);
        ModuleHandle m1 = b.loadModule(1, new ModuleImage.Ptx(DirectCopyCheck.PTX));
        ModuleHandle m0 = b.loadModule(0, new ModuleImage.Ptx(DirectCopyCheck.PTX));
        DeviceBuffer a1 = b.allocate(1, BYTES);
        DeviceBuffer c0 = b.allocate(0, BYTES);
        DeviceBuffer own0 = b.allocate(0, BYTES);
        b.launch(b.function(m1, "fill"), GRID, new Object[] {a1, INTS, 3}, s1, new OperationLabel(1, "fill"));
        EventHandle filled = b.createEvent(1);
        b.recordEvent(filled, s1);
        b.streamWaitEvent(copying, filled);
        b.copyDeviceToDevice(a1, c0, BYTES, copying, new OperationLabel(2, "copy"));
        b.launch(b.function(m0, "inc"), GRID, new Object[] {dependent ? c0 : own0, INTS}, s0,
                new OperationLabel(3, "inc"));
        MemorySegment back = b.allocateHost(BYTES);
        b.copyDeviceToHost(c0, back, BYTES, s0, new OperationLabel(4, "back"));
        b.synchronizeAll();
        if (dependent) {
            for (int i = 0; i < INTS; i++) {
                if (back.getAtIndex(JAVA_INT, i) != i * 3 + 8) {
                    System.out.println("element " + i + " is " + back.getAtIndex(JAVA_INT, i) + ", not " + (i * 3 + 8));
                    return;
                }
            }
        }
        List<TimedOperation> timeline = b.timeline();
        System.out.println("fill ends at " + time(timeline, "fill", false) + " ns; inc starts at "
                + time(timeline, "inc", true) + " ns");
    }

    /** The end (or start) of the operation named {@code name} on the timeline. */
    private static long time(List<TimedOperation> timeline, String name, boolean start) {
        TimedOperation op = timeline.stream().filter(o -> name.equals(o.label().name())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + name + " on the timeline " + timeline));
        return start ? op.startNanos() : op.endNanos();
    }
}
