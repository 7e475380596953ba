package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.cluster.MpiJobs.Job;

/**
 * The direct path of copies between ranks under a real {@code mpirun}: {@link DirectCopyCheck} on 3 ranks of one
 * emulated GPU each. Where staging is refused ({@code polygpu.cluster.testRefuseStaging}), a copy that went through
 * pinned host memory fails the job, so a job that passes moved every copy straight from and into device memory.
 * Skipped where {@code mpirun} is missing (scripts/test.sh installs Open MPI).
 */
class DirectCopyJobTest {
    private static final List<String> CHECKS = List.of(
            "check 0 rank 1 -> rank 2 -> rank 0 device: OK",
            "check 1 rank 0 -> rank 1 device (kernel after), rank 1 device -> rank 0 host (offset 4): OK",
            "check 2 rank 0 host -> rank 1 device (offset 8, kernel before): OK",
            "check 3 saxpy on rank 2's device, pulled by rank 0's held stream: OK");

    @Test
    void withClusterCudaAwareOnEveryCopyIsDirectAndNoneIsStaged() throws Exception {
        Job job = mpirun("on", true);
        assertEquals(0, job.status(), job.output());
        assertTrue(job.output().contains("copies between ranks (ClusterCudaAware=on): rank 0 direct, rank 1 direct, "
                + "rank 2 direct"), job.output());
        assertChecksPassed(job);
    }

    /** Off stages every copy: the same program passes, and fails where staging is refused (the hook sees staging). */
    @Test
    void withClusterCudaAwareOffEveryCopyIsStaged() throws Exception {
        Job job = mpirun("off", false);
        assertEquals(0, job.status(), job.output());
        assertTrue(job.output().contains("copies between ranks (ClusterCudaAware=off): rank 0 staged, rank 1 staged, "
                + "rank 2 staged"), job.output());
        assertChecksPassed(job);
        Job refused = mpirun("off", true);
        assertNotEquals(0, refused.status(), refused.output());
        assertTrue(refused.output().contains("which polygpu.cluster.testRefuseStaging refuses"), refused.output());
    }

    /**
     * Auto follows what each rank's Open MPI says of itself, which {@code ompi_info} also reports: on emulated
     * devices the copies are direct only where the library is CUDA-aware (this machine's Open MPI is not).
     */
    @Test
    void autoDetectsWhetherTheLibraryIsCudaAwareAsOmpiInfoSays() throws Exception {
        Path ompiInfo = MpiJobs.onPath("ompi_info");
        assumeTrue(ompiInfo != null, "ompi_info is not installed");
        Job info = MpiJobs.run(List.of(ompiInfo.toString(), "--parsable", "--all"), List.of());
        boolean builtWithCuda = info.output().lines()
                .anyMatch(l -> l.equals("mca:opal:base:param:opal_built_with_cuda_support:value:true"));
        assertTrue(builtWithCuda || info.output().contains("opal_built_with_cuda_support:value:false"),
                info.output());
        Job job = mpirun("auto", false);
        assertEquals(0, job.status(), job.output());
        String path = builtWithCuda ? "direct" : "staged";
        assertTrue(job.output().contains("copies between ranks (ClusterCudaAware=auto): rank 0 " + path + ", rank 1 "
                + path + ", rank 2 " + path + "; CUDA-aware MPI on ranks: " + (builtWithCuda ? "0, 1, 2" : "none")),
                job.output());
        assertChecksPassed(job);
    }

    private static void assertChecksPassed(Job job) {
        List<String> lines = job.output().lines().filter(l -> l.startsWith("check ") || l.equals("DONE")).toList();
        List<String> expected = new ArrayList<>(CHECKS);
        expected.add("DONE");
        assertEquals(expected, lines, job.output());
    }

    /** {@link DirectCopyCheck} on 3 ranks with {@code ClusterCudaAware=mode}, refusing staging if asked. */
    private static Job mpirun(String mode, boolean refuseStaging) throws Exception {
        return MpiJobs.mpirun(3, DirectCopyCheck.class, List.of("-Dpolygpu.cluster.testRefuseStaging="
                + refuseStaging), mode);
    }
}
