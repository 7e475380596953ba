package org.polygpu.bench.study;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.polygpu.config.MemoryModel;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * Runs the polygpu programs of the study, each on a fresh polyglot context of one shared {@link Engine} (so the
 * language starts once and its code stays compiled), and reads back what the run's exports say: the timeline
 * ({@code ExportTrace}) for the makespan and the bytes copied, the schedule ({@code ExportDAG}) for the lower bound.
 * The exports go to a temporary directory removed on {@link #close()}.
 */
final class PolygpuRunner implements AutoCloseable {
    private final Engine engine;
    private final Path scratch;
    private final ByteArrayOutputStream messages = new ByteArrayOutputStream();

    /**
     * {@code EmulatedDeviceMemory} of every run, or {@code null} for the device model's. Runs with less memory execute
     * every block: evicting a replica writes it back to the host, which a sampled run's uncomputed data may not be.
     */
    private final String deviceMemory;

    PolygpuRunner(String deviceMemoryOrNull) {
        deviceMemory = deviceMemoryOrNull;
        engine = Engine.newBuilder().option("engine.WarnInterpreterOnly", "false").out(OutputStream.nullOutputStream())
                .err(messages).build();
        try {
            scratch = Files.createTempDirectory("polygpu-study");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for the exports", e);
        }
    }

    /**
     * Runs {@code benchmark} in sampled execution (full with a device memory) on {@code gpus} GPUs of {@code topology} under {@code policy} and
     * {@code memoryModel}.
     */
    Measurement run(StudyBenchmark benchmark, String topology, int gpus, String policy, MemoryModel memoryModel) {
        Path trace = scratch.resolve("trace.json");
        Path dag = scratch.resolve("schedule");
        messages.reset();
        Context.Builder builder = Context.newBuilder().engine(engine).allowAllAccess(true);
        if (deviceMemory != null) {
            builder.option("polygpu.EmulatedDeviceMemory", deviceMemory);
        }
        try (Context context = builder
                .option("polygpu.Backend", "emulated")
                .option("polygpu.EmulatedDevices", Integer.toString(gpus))
                .option("polygpu.EmulatedTopology", topology)
                .option("polygpu.EmulatedDeviceModel", Study.deviceModel(topology))
                .option("polygpu.EmulatedExecution", deviceMemory == null ? "sampled" : "full")
                .option("polygpu.DeviceSelectionPolicy", policy)
                .option("polygpu.MemoryModel", memoryModel.optionValue())
                .option("polygpu.EnableComputationTimers", "true")
                .option("polygpu.ExportTrace", trace.toString())
                .option("polygpu.ExportDAG", dag.toString())
                .build()) {
            benchmark.program(context).run(benchmark.size(), benchmark.partitions());
        }
        TraceTimeline timeline = TraceTimeline.read(trace);
        ScheduleGraph graph = ScheduleGraph.read(scratch.resolve("schedule.dot"));
        // The links as the emulator models them: the values as written, not the policies' floored averages.
        DataflowBound bound = DataflowBound.of(graph, timeline, gpus,
                BandwidthMatrixLoader.resolveAsWritten(topology),
                DeviceModel.preset(Study.deviceModel(topology)).launch().hostNs());
        return new Measurement(timeline.makespanNanos(), timeline.bytesHostToDevice(),
                timeline.bytesDeviceToDevice(), timeline.bytesDeviceToHost(), bound);
    }

    @Override
    public void close() {
        engine.close();
        try (Stream<Path> files = Files.walk(scratch)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A temporary directory left behind is harmless.
        }
    }
}
