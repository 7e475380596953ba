package org.polygpu.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;
import org.polygpu.backend.TimedOperation.Kind;

class ChromeTraceExportTest {
    /**
     * Computation 0 copies x to device 0 and runs {@code scale} there; computation 1 runs {@code add} on device 1
     * stream 2 after a peer copy; computation 2 is a device copy on device 1; computation 3 reads on the host.
     */
    private static List<TimedOperation> sampleTimeline() {
        return List.of(
                op(0, 0, Kind.COPY_HOST_TO_DEVICE, 0, "copy x", 1_000, 2_500, 4096, -1),
                op(0, 0, Kind.KERNEL, 0, "scale", 2_500, 10_250, 0, 0),
                op(1, 2, Kind.COPY_DEVICE_TO_DEVICE, 1, "copy x", 10_300, 10_400, 4096, 0),
                op(1, 2, Kind.KERNEL, 1, "add", 10_400, 20_000, 0, 1),
                op(1, 0, Kind.COPY_DEVICE_TO_DEVICE, 2, "copy x to y", 20_050, 20_060, 4096, 1),
                op(1, 3, Kind.COPY_DEVICE_TO_HOST, 3, "copy y to host", 20_100, 21_000, 4096, 1));
    }

    private static ScheduleLog sampleLog() {
        ScheduleLog log = new ScheduleLog();
        log.add(new ScheduleLog.Edge(0, 1, List.of("x")));
        log.add(new ScheduleLog.Edge(1, 2, List.of("x")));
        log.add(new ScheduleLog.Edge(2, 3, List.of("y")));
        log.add(new ScheduleLog.Edge(5, 6, List.of("z")));
        return log;
    }

    private static TimedOperation op(int device, int stream, Kind kind, long id, String name, long start, long end,
                                     long bytes, int source) {
        return new TimedOperation(device, stream, kind, new OperationLabel(id, name), start, end, bytes, source);
    }

    @Test
    void topLevelHoldsTraceEventsAndNanosecondDisplayUnit() {
        Map<String, Object> trace = parse(ChromeTraceExport.toJson(sampleTimeline(), null));
        assertEquals("ns", trace.get("displayTimeUnit"));
        assertTrue(trace.get("traceEvents") instanceof List<?>);
    }

    @Test
    void metadataNamesOneProcessPerDeviceAndOneThreadPerStream() {
        List<Map<String, Object>> meta = events(ChromeTraceExport.toJson(sampleTimeline(), null), "M");
        assertEquals(List.of("device 0 @0", "device 1 @1"), meta.stream()
                .filter(e -> e.get("name").equals("process_name"))
                .map(e -> args(e).get("name") + " @" + num(e, "pid")).toList());
        assertEquals(List.of("stream 0 @0/0", "stream 0 @1/0", "stream 2 @1/2", "stream 3 @1/3"), meta.stream()
                .filter(e -> e.get("name").equals("thread_name"))
                .map(e -> args(e).get("name") + " @" + num(e, "pid") + "/" + num(e, "tid")).toList());
    }

    @Test
    void completeEventsCarryMicrosecondTimesTrackAndCategory() {
        List<Map<String, Object>> ops = events(ChromeTraceExport.toJson(sampleTimeline(), null), "X");
        assertEquals(6, ops.size());
        Map<String, Object> scale = ops.get(1);
        assertEquals("scale", scale.get("name"));
        assertEquals("kernel", scale.get("cat"));
        assertEquals(2.5, scale.get("ts"));
        assertEquals(7.75, scale.get("dur"));
        assertEquals(0.0, scale.get("pid"));
        assertEquals(0.0, scale.get("tid"));
        // A kernel's time alone on its device and the device time it consumed: its duration unless the backend knows.
        assertEquals(Map.of("computation", 0.0, "alone", 7.75, "work", 7.75), args(scale));
        Map<String, Object> add = ops.get(3);
        assertEquals(10.4, (double) add.get("ts"), 1e-12);
        assertEquals(9.6, (double) add.get("dur"), 1e-12);
        assertEquals(1.0, add.get("pid"));
        assertEquals(2.0, add.get("tid"));
    }

    @Test
    void copiesCarryBytesAndSourceLocation() {
        List<Map<String, Object>> ops = events(ChromeTraceExport.toJson(sampleTimeline(), null), "X");
        Map<String, Object> h2d = ops.get(0);
        assertEquals("copy", h2d.get("cat"));
        assertEquals(1.0, h2d.get("ts"));
        assertEquals(1.5, h2d.get("dur"));
        assertEquals(Map.of("computation", 0.0, "kind", "copy host to device", "bytes", 4096.0, "source", "host"),
                args(h2d));
        assertEquals("device 0", args(ops.get(2)).get("source"));
        assertEquals("copy device to host", args(ops.get(5)).get("kind"));
    }

    @Test
    void flowsJoinParentAndChildOperationsOfEachDrawableDependency() {
        String json = ChromeTraceExport.toJson(sampleTimeline(), sampleLog());
        List<Map<String, Object>> starts = events(json, "s");
        List<Map<String, Object>> ends = events(json, "f");
        // 0→1 kernel to kernel and 1→2 kernel to device copy; 2→3 ends in a host read, 5→6 is not in the timeline.
        assertEquals(2, starts.size());
        assertEquals(2, ends.size());
        for (int i = 0; i < 2; i++) {
            assertEquals(starts.get(i).get("id"), ends.get(i).get("id"));
            assertEquals("dependency", starts.get(i).get("cat"));
            assertEquals("dependency", ends.get(i).get("cat"));
            assertEquals("e", ends.get(i).get("bp"));
        }
        assertTrue(!starts.get(0).get("id").equals(starts.get(1).get("id")));
        // Flow 0→1: from the end of scale (device 0, stream 0) to the start of add (device 1, stream 2).
        assertTrack(starts.get(0), 0, 0);
        assertEquals(10.15, (double) starts.get(0).get("ts"), 1e-9);
        assertTrack(ends.get(0), 1, 2);
        assertEquals(10.5, (double) ends.get(0).get("ts"), 1e-9);
        // Flow 1→2: into the 10 ns device copy, half its length inside.
        assertTrack(ends.get(1), 1, 0);
        assertEquals(20.055, (double) ends.get(1).get("ts"), 1e-9);
        assertEquals("x", args(ends.get(1)).get("arrays"));
    }

    @Test
    void withoutALogThereAreNoFlows() {
        String json = ChromeTraceExport.toJson(sampleTimeline(), null);
        assertEquals(0, events(json, "s").size() + events(json, "f").size());
    }

    @Test
    void namesAreEscapedAndParseBackToTheOriginal() {
        String name = "k\"q\\b\n\t\u0001 é \uD83D\uDE00 </script>";
        String json = ChromeTraceExport.toJson(List.of(op(0, 0, Kind.KERNEL, 4, name, 0, 1, 0, 0)), null);
        assertEquals(name, events(json, "X").get(0).get("name"));
        assertTrue(json.chars().allMatch(c -> c < 0x7F), "the text is plain ASCII");
    }

    @Test
    void unlabelledOperationsAreNamedByKindAndEmptyTimelineIsValid() {
        TimedOperation unlabelled = new TimedOperation(0, 1, Kind.COPY_DEVICE_TO_HOST, OperationLabel.NONE, 5, 7,
                8, 0);
        Map<String, Object> e = events(ChromeTraceExport.toJson(List.of(unlabelled), null), "X").get(0);
        assertEquals("copy device to host", e.get("name"));
        assertTrue(!args(e).containsKey("computation"));
        assertEquals(List.of(), parse(ChromeTraceExport.toJson(List.of(), new ScheduleLog())).get("traceEvents"));
    }

    @Test
    void sameInputsGiveSameTextAndWriteStoresIt(@TempDir Path dir) throws IOException {
        String json = ChromeTraceExport.toJson(sampleTimeline(), sampleLog());
        assertEquals(json, ChromeTraceExport.toJson(sampleTimeline(), sampleLog()));
        Path file = dir.resolve("trace.json");
        ChromeTraceExport.write(sampleTimeline(), sampleLog(), file);
        assertEquals(json, Files.readString(file, StandardCharsets.US_ASCII));
    }

    /**
     * A written-back eviction is an instant at the end of its write-back copy; a dropped one at the start of the
     * first other operation of the computation it made room for on that device; one with neither is left out.
     */
    @Test
    void evictionsAreInstantsAtTheirWriteBackOrBeforeTheComputationTheyMadeRoomFor() {
        Eviction written = new Eviction(1, 1, "x", 4096, true);
        Eviction dropped = new Eviction(0, 0, "y", 4096, false);
        Eviction elsewhere = new Eviction(3, 0, "z", 4096, false);
        List<TimedOperation> timeline = new ArrayList<>(sampleTimeline());
        timeline.add(2, op(1, 5, Kind.COPY_DEVICE_TO_HOST, 1, written.name(), 10_000, 10_200, 4096, 1));
        List<Map<String, Object>> instants = events(ChromeTraceExport.toJson(timeline, null,
                List.of(written, dropped, elsewhere)), "i");
        assertEquals(List.of("evict x from device 1 (written back)", "evict y from device 0 (dropped)"),
                instants.stream().map(e -> e.get("name")).toList());
        assertEquals(List.of(10.2, 1.0), instants.stream().map(e -> e.get("ts")).toList());
        assertTrack(instants.get(0), 1, 5);
        assertTrack(instants.get(1), 0, 0);
        assertEquals("eviction", instants.get(0).get("cat"));
        assertEquals(4096.0, args(instants.get(1)).get("bytes"));
        assertEquals("no", args(instants.get(1)).get("writtenBack"));
    }

    private static void assertTrack(Map<String, Object> event, int pid, int tid) {
        assertEquals((double) pid, event.get("pid"));
        assertEquals((double) tid, event.get("tid"));
    }

    private static Map<String, Object> parse(String json) {
        return MiniJson.object(MiniJson.parse(json));
    }

    private static List<Map<String, Object>> events(String json, String phase) {
        Predicate<Map<String, Object>> inPhase = e -> phase.equals(e.get("ph"));
        return ((List<?>) parse(json).get("traceEvents")).stream().map(MiniJson::object).filter(inPhase).toList();
    }

    private static Map<String, Object> args(Map<String, Object> event) {
        return MiniJson.object(event.get("args"));
    }

    private static long num(Map<String, Object> event, String key) {
        return ((Double) event.get(key)).longValue();
    }
}
