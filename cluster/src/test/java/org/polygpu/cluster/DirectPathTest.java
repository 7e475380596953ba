package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.polygpu.backend.Backend.DeviceAddressing;
import org.polygpu.backend.BackendException;
import org.polygpu.config.ClusterCudaAware;

class DirectPathTest {
    /** Whether a rank takes the direct path, by option, library and what the backend's device pointers address. */
    @ParameterizedTest
    @CsvSource({
            "AUTO, false, DEVICE_MEMORY, false", "AUTO, true, DEVICE_MEMORY, true",
            "AUTO, false, HOST_MEMORY, false", "AUTO, true, HOST_MEMORY, true",
            "AUTO, true, NONE, false", "AUTO, false, NONE, false",
            "ON, true, DEVICE_MEMORY, true", "ON, false, HOST_MEMORY, true", "ON, true, HOST_MEMORY, true",
            "OFF, true, DEVICE_MEMORY, false", "OFF, true, HOST_MEMORY, false", "OFF, false, HOST_MEMORY, false",
            "OFF, false, DEVICE_MEMORY, false", "OFF, false, NONE, false"})
    void aRankTakesTheDirectPathWhereItsLibraryReadsWhatItsDevicePointersAddress(ClusterCudaAware mode,
            boolean mpiCudaAware, DeviceAddressing addressing, boolean expected) {
        assertEquals(expected, DirectPath.capable(mode, mpiCudaAware, addressing, 1));
    }

    @Test
    void onIsRefusedForGpusBehindALibraryThatIsNotCudaAwareNamingTheRank() {
        BackendException e = assertThrows(BackendException.class,
                () -> DirectPath.capable(ClusterCudaAware.ON, false, DeviceAddressing.DEVICE_MEMORY, 2));
        assertTrue(e.getMessage().startsWith("ClusterCudaAware=on, but rank 2 cannot copy from device memory: its "
                + "devices are GPUs and its MPI library is not CUDA-aware"), e.getMessage());
        assertTrue(e.getMessage().endsWith("use ClusterCudaAware=auto or off, or an Open MPI built with CUDA support"),
                e.getMessage());
    }

    @Test
    void onIsRefusedForABackendWithoutDevicePointers() {
        BackendException e = assertThrows(BackendException.class,
                () -> DirectPath.capable(ClusterCudaAware.ON, true, DeviceAddressing.NONE, 0));
        assertTrue(e.getMessage().contains("rank 0 cannot copy from device memory: its backend gives no device "
                + "pointers"), e.getMessage());
    }

    /** A copy is direct only where every rank whose device memory it touches takes the direct path. */
    @Test
    void aCopyIsDirectOnlyWhereBothEndsAre() {
        DirectPath path = new DirectPath(ClusterCudaAware.AUTO, new boolean[] {true, false, true},
                new boolean[] {true, false, true});
        assertTrue(path.between(0, 2));
        assertTrue(path.between(2, 0));
        assertFalse(path.between(0, 1));
        assertFalse(path.between(1, 2));
        assertTrue(path.withHost(2));
        assertFalse(path.withHost(1));
    }

    @Test
    void itsDescriptionNamesTheOptionAndEachRanksPath() {
        assertEquals("copies between ranks (ClusterCudaAware=auto): rank 0 direct, rank 1 staged; CUDA-aware MPI on "
                + "ranks: 0", new DirectPath(ClusterCudaAware.AUTO, new boolean[] {true, false},
                new boolean[] {true, false}).toString());
        assertEquals("copies between ranks (ClusterCudaAware=on): rank 0 direct, rank 1 direct; CUDA-aware MPI on "
                + "ranks: none", new DirectPath(ClusterCudaAware.ON, new boolean[] {true, true},
                new boolean[] {false, false}).toString());
    }

    @Test
    void ranksCountsMustAgree() {
        assertThrows(IllegalArgumentException.class,
                () -> new DirectPath(ClusterCudaAware.OFF, new boolean[2], new boolean[3]));
    }
}
