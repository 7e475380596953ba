package org.polygpu.bench.study;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.polygpu.sched.spi.LocationSet;

/** The study runs a node preset on its 8 GPUs and a cluster on every GPU of every node. */
class StudyGpuCountTest {
    @Test
    void clustersRunOnAllTheirGpus() {
        assertEquals(8, Study.gpuCount("h100x8"));
        assertEquals(16, Study.gpuCount("2xv100x8"));
        assertEquals(64, Study.gpuCount("8xh100x8"), "8 nodes of 8: all 64, no longer 63");
        assertEquals(LocationSet.MAX_DEVICES, Study.gpuCount("128xa100x8"), "the largest cluster fits the runtime");
    }
}
