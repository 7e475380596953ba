package org.polygpu.bench.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The times a study program's last line reports from its trace: makespan, kernels' and copies' GPU time. */
class TraceTimesTest {
    @TempDir
    Path dir;

    @Test
    void kernelsAndCopiesAreSummedApartAndTheMakespanSpansThemAll() throws IOException {
        Path trace = dir.resolve("trace.json");
        Files.writeString(trace, """
                {"traceEvents":[
                {"name":"process_name","ph":"M","pid":0,"tid":0,"args":{"name":"device 0"}},
                {"name":"copy x","cat":"copy","ph":"X","ts":10.0,"dur":5.5,"pid":0,"tid":0,"args":{}},
                {"name":"k","cat":"kernel","ph":"X","ts":16.0,"dur":8.0,"pid":0,"tid":0,"args":{}},
                {"name":"k","cat":"kernel","ph":"X","ts":18.0,"dur":2.0,"pid":0,"tid":1,"args":{}},
                {"name":"copy y","cat":"copy","ph":"X","ts":30.0,"dur":4.5,"pid":0,"tid":0,"args":{}}
                ]}
                """);
        ProgramLauncher.TraceTimes t = ProgramLauncher.TraceTimes.of(trace).orElseThrow();
        assertEquals(new ProgramLauncher.TraceTimes(24.5, 10.0, 2, 10.0, 2), t);
        assertEquals("makespan 24.5 us, kernels 10.0 us in 2, copies 10.0 us in 2", t.line());
    }

    @Test
    void aTraceWithoutKernelsOrCopiesOrNoTraceGivesNothing() throws IOException {
        Path trace = dir.resolve("empty.json");
        Files.writeString(trace, "{\"traceEvents\":[]}");
        assertTrue(ProgramLauncher.TraceTimes.of(trace).isEmpty());
        assertTrue(ProgramLauncher.TraceTimes.of(dir.resolve("missing.json")).isEmpty());
    }
}
