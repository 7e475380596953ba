package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.Backends;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.cuda.CudaDetection;
import org.polygpu.emulator.DeviceModel;

/** {@code Backend=auto} and {@code Backend=cuda} on a machine without a GPU, with both providers present. */
class BackendChoiceTest {
    @Test
    void autoFallsBackToTheEmulatorWithOneLineSayingWhy() {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        OpenedBackend opened = Backends.open("auto", BackendOptions.defaults().withEmulatedDevices(2));
        try {
            assertEquals("emulated", opened.backend().name());
            assertEquals("polygpu: cuda: " + CudaDetection.detect().reason() + "; using 2 emulated "
                    + DeviceModel.V100.name() + " on topology v100x8 (GPUs 0-1 of its 8); device model: "
                    + DeviceModel.V100.describe(), opened.notice());
            assertFalse(opened.notice().contains("\n"), "one line");
        } finally {
            opened.backend().close();
        }
    }

    @Test
    void cudaWithoutAGpuIsAnErrorSayingWhyEvenWithTheEmulatorPresent() {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        BackendException e = assertThrows(BackendException.class,
                () -> Backends.open("cuda", BackendOptions.defaults()));
        assertEquals("Backend=cuda cannot run here: " + CudaDetection.detect().reason(), e.getMessage());
    }

    @Test
    void anUnknownBackendListsTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Backends.open("opencl", BackendOptions.defaults()));
        assertEquals("invalid value 'opencl' for option Backend; valid values: auto, cuda, emulated", e.getMessage());
    }
}
