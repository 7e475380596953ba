package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

/**
 * Copies to the host that no event orders after a kernel writing their source read the memory as it is at their
 * completion in virtual time: the kernel's effect when it completed before them (a Java kernel's takes effect at its
 * completion), the old contents otherwise; the same on every run.
 */
class UnorderedHostReadTest {
    private static final int READS = 6;

    @Test
    void anUnorderedCopyToTheHostSeesTheWriterExactlyWhenItCompletedFirst() {
        List<Object> first = run();
        assertEquals(first, run(), "the same answers on every run");
        @SuppressWarnings("unchecked")
        List<Integer> values = (List<Integer>) first.get(0);
        assertEquals(0, values.getFirst(), "the first read completes before the 10 µs kernel");
        assertEquals(42, values.getLast(), "the last read completes after it");
    }

    /** The values read, then whether each read completed after the kernel by the timeline. */
    private static List<Object> run() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            b.recordTimeline(true);
            FunctionHandle store = b.function(b.loadModule(0, Fixtures.module()), "store");
            DeviceBuffer x = b.allocate(0, 4);
            DeviceBuffer filler = b.allocate(0, 1 << 20);
            StreamHandle writer = b.createStream(0);
            StreamHandle reader = b.createStream(0);
            b.launch(store, LaunchConfig.of(1, 1), new Object[] {x, 42}, writer, new OperationLabel(0, "store"));
            List<MemorySegment> reads = new ArrayList<>();
            MemorySegment scratch = b.allocateHost(1 << 20);
            for (int i = 0; i < READS; i++) {
                MemorySegment out = b.allocateHost(4);
                b.copyDeviceToHost(x, out, 4, reader, new OperationLabel(1 + i, "read"));
                reads.add(out);
                b.copyDeviceToHost(filler, scratch, 1 << 20, reader, OperationLabel.NONE);
            }
            b.synchronizeAll();
            List<TimedOperation> timeline = b.timeline();
            long kernelEnd = timeline.stream().filter(op -> op.kind() == TimedOperation.Kind.KERNEL).findFirst()
                    .orElseThrow().endNanos();
            List<Integer> values = new ArrayList<>();
            List<Boolean> after = new ArrayList<>();
            for (int i = 0; i < READS; i++) {
                int id = 1 + i;
                values.add(reads.get(i).get(JAVA_INT, 0));
                long end = timeline.stream().filter(op -> op.label().computationId() == id).findFirst()
                        .orElseThrow().endNanos();
                after.add(end > kernelEnd);
                assertEquals(end > kernelEnd, values.get(i) == 42, "read " + i + " ends at " + end
                        + " ns, the kernel at " + kernelEnd + " ns");
            }
            return List.of(values, after);
        }
    }
}
