package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.polygpu.cluster.MpiJobs.Job;
import org.polygpu.topology.NetworkLink;

/**
 * The network in the virtual clocks of emulated ranks under a real {@code mpirun}: {@link NetworkTimeCheck} on 2 ranks
 * of one emulated V100 each. A kernel of rank 0 that depends on bytes copied from rank 1's device starts no earlier
 * than the bytes could cross rank 0's NIC (EDR, 12.5 GB/s, 2 us) after rank 1's kernel wrote them, on the staged path
 * and on the direct one; without the dependency it starts that much earlier; and the times are the same on every run.
 */
class NetworkTimeJobTest {
    private static final Pattern TIMES = Pattern.compile("fill ends at (\\d+) ns; inc starts at (\\d+) ns");
    private static final NetworkLink EDR = NetworkLink.forNodePreset("v100x8");
    /** What the network alone takes for the copy: its latency, then the bytes at the NIC's rate. */
    private static final long NETWORK_NANOS = RankClock.arrival(0, NetworkTimeCheck.BYTES, EDR);

    /** The fill's end and the kernel's start, in rank 1's and rank 0's virtual nanoseconds. */
    private record Times(long fillEnd, long incStart) {
    }

    @Test
    void aKernelAfterACopyFromAnotherRankWaitsForTheNetworkOnTheStagedPath() throws Exception {
        Times dependent = times("off", "dependent");
        Times independent = times("off", "independent");
        assertTrue(dependent.incStart() >= dependent.fillEnd() + NETWORK_NANOS, dependent + " vs " + NETWORK_NANOS);
        assertTrue(dependent.incStart() - independent.incStart() >= NETWORK_NANOS - EDR.latencyNanos(),
                dependent + " vs " + independent);
        assertEquals(dependent, times("off", "dependent")); // deterministic across runs
    }

    @Test
    void onTheDirectPathTheCopyTakesTheNetworksTime() throws Exception {
        Times dependent = times("on", "dependent");
        assertTrue(dependent.incStart() >= dependent.fillEnd() + NETWORK_NANOS, dependent + " vs " + NETWORK_NANOS);
        assertEquals(dependent, times("on", "dependent"));
    }

    private static Times times(String mode, String variant) throws Exception {
        Job job = MpiJobs.mpirun(2, NetworkTimeCheck.class, List.of(), mode, variant);
        assertEquals(0, job.status(), job.output());
        assertTrue(job.output().contains("DONE"), job.output());
        Matcher m = TIMES.matcher(job.output());
        assertTrue(m.find(), job.output());
        return new Times(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
    }
}
