package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.backend.TimedOperation;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.export.ChromeTraceExport;
import org.polygpu.export.DotExport;
import org.polygpu.export.ScheduleLog;
import org.polygpu.sched.ExecutionContext;

/** The same program on the emulator always yields the same DAG export, timeline and makespan. */
class DeterminismTest {
    private record Run(float result, List<TimedOperation> timeline, String dot, String trace, long makespan) {
    }

    private static Run run(String policy) {
        try (EmulatedBackend backend = Fixtures.backend(4, "v100x8");
             ExecutionContext ctx = Fixtures.context(backend, c -> c.withDeviceSelectionPolicy(policy))) {
            float result = Workload.run(ctx, 6, 4, 2000);
            ctx.synchronize();
            ScheduleLog log = ctx.scheduleLog();
            return new Run(result, ctx.timeline(), DotExport.toDot(log),
                    ChromeTraceExport.toJson(ctx.timeline(), log), backend.makespanNanos());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"round-robin", "stream-aware", "minmax-transfer-time"})
    void sameWorkloadTwiceGivesIdenticalTimelineAndSchedule(String policy) {
        Run first = run(policy);
        Run second = run(policy);
        assertFalse(first.timeline().isEmpty());
        assertEquals(first.result(), second.result());
        assertEquals(first.timeline(), second.timeline());
        assertEquals(first.dot(), second.dot());
        assertEquals(first.trace(), second.trace());
        assertEquals(first.makespan(), second.makespan());
    }
}
