package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.emulator.ptx.InstructionMix;
import org.polygpu.emulator.ptx.KernelCounters;
import org.polygpu.emulator.timing.KernelProfile;
import org.polygpu.emulator.timing.LinkSpec;

/** The fitting recovers the parameters of a known model from measurements that model generates. */
class DeviceModelFitTest {
    /**
     * Blocks of 256 threads; per warp: instructions, exposed loads, sectors (coalesced, four to a line, when there
     * are more sectors than loads; else one line each); the footprint.
     */
    private static KernelProfile profile(long blocks, long instructions, long loads, long sectors, long footprint,
                                         long hotAtomics) {
        long lines = sectors > 4 * loads ? sectors : (sectors + 3) / 4;
        long warps = blocks * 8;
        InstructionMix mix = new InstructionMix((instructions - loads) * warps, 0, 0, 0, loads * warps,
                loads * warps, 0, 0, 0);
        return new KernelProfile(blocks, 256, 0, footprint, new KernelCounters(blocks, warps,
                instructions * warps, instructions * warps * 32, sectors * warps, 0, hotAtomics, 0, 0, hotAtomics,
                mix, lines * warps));
    }

    /** Kernels that each expose one parameter: latency- and bandwidth-bound, from L2 and DRAM, atomics, empty. */
    private static List<KernelProfile> kernels() {
        long big = 1L << 30;
        long small = 40L << 20;
        List<KernelProfile> p = new ArrayList<>();
        for (long loads : new long[] {10, 100, 1000}) {
            p.add(profile(64, loads * 3, loads, loads * 4, big, 0));
            p.add(profile(64, loads * 3, loads, loads * 4, small, 0));
        }
        for (long blocks : new long[] {10_000, 20_000}) {
            p.add(profile(blocks, 12, 1, 16, big, 0));
            p.add(profile(blocks, 12, 1, 16, small, 0));
        }
        for (long sectors : new long[] {10_000, 40_000}) {
            p.add(profile(1, 2 * sectors / 32, sectors / 32 / 8, sectors, small, 0));
        }
        for (long instructions : new long[] {20_000, 100_000}) {
            p.add(profile(1, instructions, 0, 0, small, 0));
        }
        p.add(profile(1000, 10, 0, 0, small, 200_000));
        p.add(profile(4000, 10, 0, 0, small, 800_000));
        p.add(profile(1, 1, 0, 0, 4, 0));
        p.add(profile(2, 5, 1, 1, 4, 0));
        return p;
    }

    @Test
    void kernelParametersAreRecoveredFromSyntheticMeasurements() {
        DeviceModel truth = DeviceModel.H100;
        List<DeviceModelFit.KernelObservation> observations = kernels().stream()
                .map(k -> new DeviceModelFit.KernelObservation(k, DeviceModelFit.kernelNanos(truth, k))).toList();
        double[] off = DeviceModelFit.kernelParameters(truth);
        for (int i = 0; i < off.length; i++) {
            off[i] *= i % 2 == 0 ? 2 : 0.5;
        }
        DeviceModel start = DeviceModelFit.withKernelParameters(truth, off);
        DeviceModel fitted = DeviceModelFit.kernels(start, observations);
        double[] expected = DeviceModelFit.kernelParameters(truth);
        double[] got = DeviceModelFit.kernelParameters(fitted);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], got[i], expected[i] * 0.01, DeviceModelFit.KERNEL_PARAMETERS.get(i));
        }
        assertEquals(truth.sm(), fitted.sm(), "the published figures are kept");
    }

    @Test
    void copyLinesAreRecovered() {
        List<DeviceModelFit.CopyObservation> observations = new ArrayList<>();
        for (long bytes : new long[] {4096, 1 << 16, 1 << 20, 1 << 24}) {
            observations.add(new DeviceModelFit.CopyObservation(DeviceModelFit.CopyKind.HOST_TO_DEVICE_PAGEABLE,
                    bytes, 9000 + bytes / 12.5));
            observations.add(new DeviceModelFit.CopyObservation(DeviceModelFit.CopyKind.DEVICE_TO_DEVICE, bytes,
                    12000 + bytes / 1500.0));
        }
        DeviceModel fitted = DeviceModelFit.copies(DeviceModel.V100, observations);
        LinkSpec pageable = fitted.copies().hostToDevicePageable();
        assertArrayEquals(new double[] {12.5, 9000}, new double[] {pageable.bandwidthGBps(), pageable.latencyNs()},
                1e-6);
        assertEquals(1500, fitted.copies().deviceToDevice().bandwidthGBps(), 1e-6);
        assertEquals(DeviceModel.V100.copies().hostToDevicePinned(), fitted.copies().hostToDevicePinned(),
                "kinds not measured keep their figures");
    }

    /**
     * Launches measured in batches that a host issued no faster than one per floor: kernels shorter than the floor
     * say nothing but that, and a fit from parameters off by 30-50% still reproduces every measurement.
     */
    @Test
    void aBatchFloorHidesOnlyTheKernelsShorterThanIt() {
        DeviceModel truth = DeviceModel.H100;
        List<KernelProfile> profiles = kernels();
        double floor = profiles.stream().mapToDouble(k -> DeviceModelFit.kernelNanos(truth, k)).min().orElseThrow()
                * 1.5;
        List<DeviceModelFit.KernelObservation> observations = profiles.stream()
                .map(k -> new DeviceModelFit.KernelObservation(k, DeviceModelFit.batchNanos(truth, k, floor)))
                .toList();
        assertTrue(observations.stream().anyMatch(o -> o.nanos() == floor), "some kernels are hidden");
        double[] off = DeviceModelFit.kernelParameters(truth);
        for (int i = 0; i < off.length; i++) {
            off[i] *= i % 2 == 0 ? 1.5 : 0.7;
        }
        DeviceModel fitted = DeviceModelFit.kernels(DeviceModelFit.withKernelParameters(truth, off), observations,
                floor);
        for (DeviceModelFit.KernelObservation o : observations) {
            assertEquals(o.nanos(), DeviceModelFit.batchNanos(fitted, o.profile(), floor), o.nanos() * 0.01);
        }
        assertEquals(DeviceModelFit.kernelNanos(truth, profiles.get(0)) + 1,
                DeviceModelFit.batchNanos(truth, profiles.get(0), DeviceModelFit.kernelNanos(truth, profiles.get(0))
                        + 1));
        assertThrows(IllegalArgumentException.class, () -> DeviceModelFit.kernels(truth, observations, -1));
    }

    @Test
    void nothingToFitIsAnError() {
        assertEquals("no kernel measurements to fit the model to", assertThrows(IllegalArgumentException.class,
                () -> DeviceModelFit.kernels(DeviceModel.H100, List.of())).getMessage());
    }
}
